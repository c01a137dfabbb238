from django.urls import path

from scoring import people, transfer, views

app_name = "scoring"

# A game is addressed by its public id (128 random bits), never by its database number.
urlpatterns = [
    path("", views.game_list, name="history"),
    path("players/", people.players, name="players"),
    path("players/<int:player_id>/", people.player, name="player"),
    path("players/<int:player_id>/merge/", people.player_merge, name="player_merge"),
    path("statistics/", views.statistics, name="statistics"),
    path("games/new/", views.game_start, name="start"),
    path("games/<slug:game_id>/", views.pad, name="pad"),
    path("games/<slug:game_id>/save/", views.pad_field_save, name="save"),
    path("games/<slug:game_id>/live/", views.pad_live, name="live"),
    path("games/<slug:game_id>/results/", views.results, name="results"),
    path("games/<slug:game_id>/finish/", views.game_finish, name="finish"),
    path("games/<slug:game_id>/delete/", views.game_delete, name="delete"),
    path("games/<slug:game_id>/export/", views.game_export, name="export"),
    path("games/<slug:game_id>/changes/<int:change_id>/undo/", views.change_undo, name="undo"),
    path("games/<slug:game_id>/links/<str:kind>/<str:action>/", views.link_change, name="link"),
    path("games/<slug:game_id>/name/", views.link_name, name="name"),
    path("join/<slug:token>/", views.join, name="join"),
    # Your data: every game you own downloaded, a game file uploaded (scoring/transfer.py).
    path("data/", transfer.data, name="data"),
    path("data/export.json", transfer.export_json, name="export_json"),
    path("data/export.csv", transfer.export_csv, name="export_csv"),
    path("data/import/", transfer.import_file, name="import"),
    path("data/import/confirm/", transfer.import_confirm, name="import_confirm"),
]
