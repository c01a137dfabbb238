from django.urls import path

from scoring import views

app_name = "scoring"

urlpatterns = [
    path("", views.game_list, name="history"),
    path("players/", views.player_stats, name="players"),
    path("games/new/", views.game_start, name="start"),
    path("games/<int:game_id>/", views.pad, name="pad"),
    path("games/<int:game_id>/save/", views.pad_field_save, name="save"),
    path("games/<int:game_id>/live/", views.pad_live, name="live"),
    path("games/<int:game_id>/results/", views.results, name="results"),
    path("games/<int:game_id>/finish/", views.game_finish, name="finish"),
    path("games/<int:game_id>/delete/", views.game_delete, name="delete"),
]
