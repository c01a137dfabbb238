from django.urls import path

from scoring.views import games, pad, people, sharing, transfer

app_name = "scoring"

# A game is addressed by its public id (128 random bits), never by its database number.
urlpatterns = [
    path("", games.game_list, name="history"),
    path("players/", people.players, name="players"),
    path("players/<int:player_id>/", people.player, name="player"),
    path("players/<int:player_id>/merge/", people.player_merge, name="player_merge"),
    path("statistics/", games.statistics, name="statistics"),
    path("games/new/", games.game_start, name="start"),
    path("games/<slug:game_id>/", pad.pad, name="pad"),
    path("games/<slug:game_id>/save/", pad.pad_field_save, name="save"),
    path("games/<slug:game_id>/live/", pad.pad_live, name="live"),
    path("games/<slug:game_id>/results/", games.results, name="results"),
    path("games/<slug:game_id>/length/", games.play_length, name="length"),
    path("games/<slug:game_id>/again/", games.play_again, name="again"),
    path("games/<slug:game_id>/finish/", pad.game_finish, name="finish"),
    path("games/<slug:game_id>/reopen/", pad.game_reopen, name="reopen"),
    path("games/<slug:game_id>/table/", pad.game_table, name="table"),
    path("games/<slug:game_id>/during/", pad.game_mode_change, name="during"),
    path("games/<slug:game_id>/delete/", games.game_delete, name="delete"),
    path("games/<slug:game_id>/export/", games.game_export, name="export"),
    path("games/<slug:game_id>/changes/<int:change_id>/undo/", pad.change_undo, name="undo"),
    path("games/<slug:game_id>/links/<str:kind>/<str:action>/", sharing.link_change, name="link"),
    path("games/<slug:game_id>/name/", pad.link_name, name="name"),
    path("games/<slug:game_id>/who/", sharing.who, name="who"),
    path("games/<slug:game_id>/next/", sharing.next_game_follow, name="next"),
    path("join/<slug:token>/", sharing.join, name="join"),
    # Your data: every game you own downloaded, a game file uploaded (scoring/views/transfer.py).
    path("data/", transfer.data, name="data"),
    path("data/export.json", transfer.export_json, name="export_json"),
    path("data/export.csv", transfer.export_csv, name="export_csv"),
    path("data/import/", transfer.import_file, name="import"),
    path("data/import/confirm/", transfer.import_confirm, name="import_confirm"),
    path("data/import/continue/", transfer.import_continue, name="import_continue"),
]
