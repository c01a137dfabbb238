"""What the pad stores: games, their comb sectors, their seats and the tokens on the comb.

A seat has one column per score category, generated from ``scoring.rules.categories`` so the
list of categories stays the single source of truth; the database checks every range.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.rules.categories import (
    CATEGORIES,
    DEFAULT_DURING,
    DEFAULT_END_TRIGGER_TOKEN,
    END_TRIGGER_TOKENS,
    MAX_ACTIVE_WORKERS,
    MAX_FACTION_LENGTH,
    MAX_NAME_LENGTH,
    MAX_PLAY_MINUTES,
    MAX_PLAYERS,
    MAX_SECTOR_VP,
    MAX_SECTORS,
    TOKENS_PER_PLAYER,
    Category,
    During,
    categories_of,
)
from scoring.rules.names import name_key


def _between(field: str, low: int, high: int, name: str) -> models.CheckConstraint:
    return models.CheckConstraint(condition=models.Q(**{f"{field}__gte": low, f"{field}__lte": high}), name=name)


def new_public_id() -> str:
    """A game's address: 128 random bits (22 URL-safe characters), never a guessable number."""
    return secrets.token_urlsafe(16)


def new_link_token() -> str:
    """A share link's secret: 192 random bits (32 URL-safe characters)."""
    return secrets.token_urlsafe(24)


def new_visitor_id() -> str:
    """What names one browser that scores without an account (kept in its session, never in a
    cookie or an address of its own): 192 random bits (32 URL-safe characters)."""
    return secrets.token_urlsafe(24)


VISITOR_ID_LENGTH = 32


def new_player_public_id() -> str:
    """A player's random public id of migrations 0017 and 0018, which call it (96 random bits):
    the field went in migration 0027, as BG Stats now knows a player by name
    (``scoring.presenters.bgstats.player_id``)."""
    return secrets.token_urlsafe(12)


def _owner_or_visitor(name: str) -> models.CheckConstraint:
    """An account's or a visitor's, never both (neither: a game of nobody, from before accounts)."""
    return models.CheckConstraint(condition=models.Q(owner__isnull=True) | models.Q(visitor__isnull=True), name=name)


def _visitor_field() -> models.CharField:
    """The browser that made the row without an account: the visitor id kept in its session
    (``actors.Keeper``), until an account claims it (``services.visitors.visitor_games_claim``)."""
    return models.CharField(max_length=VISITOR_ID_LENGTH, null=True, blank=True, default=None, editable=False)


class Game(models.Model):
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="games",
        help_text=_("Who started the game (or imported it); games from before accounts have none."),
    )
    played_on = models.DateField(_("date played"), default=timezone.localdate)
    notes = models.TextField(_("notes"), blank=True)
    end_trigger_token = models.PositiveSmallIntegerField(
        _("end-trigger token"),
        choices=[(6, _("6th token (English rules)")), (7, _("7th token (French rules)"))],
        default=DEFAULT_END_TRIGGER_TOKEN,
        help_text=_(
            "The game ends when a player places this hibernation token (6th in the English rules, 7th in the French)."
        ),
    )
    # How the game scores its during-the-game points: the VP track (one number per player, the
    # default of a new game) or the breakdown (the starting VP and each source). The games stored
    # before there was a choice keep the breakdown they were scored with (migration 0015).
    during_mode = models.CharField(
        _("points during the game"),
        max_length=9,
        choices=[(During.TRACK.value, _("VP track")), (During.BREAKDOWN.value, _("breakdown"))],
        default=DEFAULT_DURING.value,
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Goes up by one with every change to the game's scores, in the same transaction: the
    # pads of other phones compare it with the one they show to learn that something changed.
    revision = models.PositiveIntegerField(default=0)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # How long the play lasted, in minutes, as its table said (asked once it is finished, for BG
    # Stats): None when not said.
    play_minutes = models.PositiveSmallIntegerField(
        _("play length (minutes)"),
        null=True,
        blank=True,
        default=None,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_PLAY_MINUTES)],
    )
    # The game this one was started after with *Play again*: the same table's game before. Its
    # phones (pads, table view, results) are offered this one, to follow with one tap
    # (``views.sharing.next_game_follow``). None for a game started afresh, or once the game
    # before is deleted.
    played_after = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="played_next", editable=False
    )
    # What makes it the same game as one of a game file (``gamefile.fingerprints.game_fingerprint``), kept so
    # that an import looks its games up in the database instead of reading the account's games
    # back. NULL until known: every write to the game empties it (``services.locking.game_lock``); storing
    # and finishing a game set it, and an import fills the ones missing
    # (``services.imports.fingerprints_fill``).
    fingerprint = models.CharField(max_length=64, null=True, blank=True, default=None, editable=False)
    # A visitor's game (scored without an account): the browser's visitor id (``actors.Keeper``).
    visitor = _visitor_field()

    class Meta:
        ordering = ["-played_on", "-created_at", "-id"]
        indexes = [  # the history: an owner's games, newest first
            models.Index(fields=["owner", "-played_on", "-created_at", "-id"], name="game_history_order"),
            # an import's "already stored?": an owner's games by fingerprint
            models.Index(fields=["owner", "fingerprint"], name="game_owner_fingerprint"),
            # a visitor's history, and the games an account claims from the browser: the few
            # games of visitors alone (a partial index)
            models.Index(
                fields=["visitor", "-played_on", "-created_at", "-id"],
                name="game_visitor_history",
                condition=models.Q(visitor__isnull=False),
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(end_trigger_token__in=END_TRIGGER_TOKENS), name="game_end_trigger_token_6_or_7"
            ),
            _owner_or_visitor("game_owner_or_visitor_not_both"),
            models.CheckConstraint(
                condition=models.Q(during_mode__in=[during.value for during in During]),
                name="game_during_mode_track_or_breakdown",
            ),
            _between("play_minutes", 1, MAX_PLAY_MINUTES, "game_play_minutes_range"),
        ]

    def __str__(self) -> str:
        return f"Game {self.public_id} ({self.played_on})"

    @property
    def is_finished(self) -> bool:
        return self.finished_at is not None

    @property
    def during(self) -> During:
        """How the game scores its during-the-game points (``during_mode``, as the engine reads it)."""
        return During(self.during_mode)


class SectorAwards(models.Model):
    """One comb sector's printed awards: the VP for 1st and 2nd place (0: no 2nd-place award)."""

    position = models.PositiveSmallIntegerField(validators=[MaxValueValidator(MAX_SECTORS - 1)])
    first_vp = models.PositiveSmallIntegerField(_("1st place VP"), validators=[MaxValueValidator(MAX_SECTOR_VP)])
    second_vp = models.PositiveSmallIntegerField(
        _("2nd place VP"), default=0, validators=[MaxValueValidator(MAX_SECTOR_VP)]
    )

    class Meta:
        abstract = True
        constraints = [
            _between("position", 0, MAX_SECTORS - 1, "%(class)s_position_range"),
            _between("first_vp", 0, MAX_SECTOR_VP, "%(class)s_first_vp_range"),
            _between("second_vp", 0, MAX_SECTOR_VP, "%(class)s_second_vp_range"),
        ]

    @property
    def number(self) -> int:
        return self.position + 1


class GameSector(SectorAwards):
    """The game's own copy of one comb sector's awards, so later layout edits never change it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="sectors")

    class Meta(SectorAwards.Meta):
        ordering = ["game", "position"]
        constraints = [
            *SectorAwards.Meta.constraints,
            models.UniqueConstraint(fields=["game", "position"], name="sector_position_unique_per_game"),
        ]

    def __str__(self) -> str:
        return f"Sector {self.position + 1}: {self.first_vp}/{self.second_vp}"


def _category_field(category: Category) -> models.Field:
    """A yes/no is always answered (no until ticked); a number is empty (NULL) until entered,
    so the pad can tell "not entered yet" from 0. Empty counts as 0 in every score."""
    if category.is_flag:
        return models.BooleanField(category.label, default=False)
    return models.SmallIntegerField(
        category.label,
        null=True,
        blank=True,
        default=None,
        validators=[MinValueValidator(category.minimum), MaxValueValidator(category.maximum)],
    )


class Seat(models.Model):
    """One player of one game, at one seat, with every score category's entry."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(
        _("seat"), validators=[MinValueValidator(1), MaxValueValidator(MAX_PLAYERS)]
    )
    name = models.CharField(_("name"), max_length=MAX_NAME_LENGTH)
    # The name case-folded (Python's casefold, for every alphabet), so the database itself keeps
    # names unique per game ignoring case; SQLite's LOWER() only folds A to Z.
    name_key = models.CharField(max_length=MAX_NAME_LENGTH * 3, editable=False)
    faction = models.CharField(_("faction"), max_length=MAX_FACTION_LENGTH, blank=True)
    is_automa = models.BooleanField(_("Automa"), default=False)
    active_workers = models.PositiveSmallIntegerField(
        _("active workers"), null=True, blank=True, default=None, validators=[MaxValueValidator(MAX_ACTIVE_WORKERS)]
    )
    # The sums typed into fields, by category key ("3+6+2"), kept so they stay editable.
    sums = models.JSONField(default=dict, blank=True)
    # Who last wrote each of the seat's fields, by field key (a category key, "active_workers",
    # or "t<sector position>"): [version, page, sequence, {page: sequence}]. The version goes up
    # with every write; a phone's save names the version it saw, so a stale page never overwrites a
    # newer value; the latest save number of each recent page, so that a save that comes back is
    # applied once whoever wrote since (services.field_save).
    revisions = models.JSONField(default=dict, blank=True)
    # The seat's outcome, stored by services.game_outcome_store in the transaction of every
    # change to the game (through the one scoring engine), so that reading a history never
    # re-scores a game. ``manage.py recompute_outcomes`` stores them all again (after a rules fix).
    score_during = models.IntegerField(_("during the game"), default=0)
    score_majority = models.IntegerField(_("comb majorities"), default=0)
    score_end = models.IntegerField(_("end of the game"), default=0)
    score_total = models.IntegerField(_("total"), default=0)
    rank = models.PositiveSmallIntegerField(_("rank"), default=1)
    is_winner = models.BooleanField(_("winner"), default=False)
    sector_awards = models.JSONField(default=list, blank=True)  # the VP each comb sector gave, in order
    # What this seat adds to its owner's and its player's tallies (``scoring.tallies``), as it
    # was last added: NULL while its game is in progress, so the tallies always follow a change
    # of a finished game by the difference alone.
    tallied = models.JSONField(null=True, blank=True, default=None, editable=False)
    player = models.ForeignKey(
        "Player",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="seats",
        help_text=_("The person across games (none for the games of nobody)."),
    )

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="seat_number_unique_per_game"),
            models.UniqueConstraint(fields=["game", "name_key"], name="seat_name_unique_per_game_ignoring_case"),
            models.UniqueConstraint(
                fields=["game"], condition=models.Q(is_automa=True), name="seat_one_automa_per_game"
            ),
            models.CheckConstraint(condition=~models.Q(name=""), name="seat_name_not_empty"),
            _between("number", 1, MAX_PLAYERS, "seat_number_range"),
            _between("active_workers", 0, MAX_ACTIVE_WORKERS, "seat_active_workers_range"),
        ] + [
            _between(category.key, category.minimum, category.maximum, f"seat_{category.key}_range")
            for category in CATEGORIES
            if not category.is_flag
        ]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.number})"

    @staticmethod
    def key_for(name: str) -> str:
        """What makes two names one person's (``rules.names.name_key``)."""
        return name_key(name)

    def save(self, *args, **kwargs):
        self.name_key = self.key_for(self.name)
        super().save(*args, **kwargs)

    def entries(self, during: During | None = None) -> dict[str, int | bool]:
        """Every category's entry as it counts (an entry not made yet counts as 0), or only those
        of the categories a game that scores its during-the-game points ``during`` counts."""
        return {
            category.key: _counted(getattr(self, category.key))
            for category in (CATEGORIES if during is None else categories_of(during))
        }

    @property
    def workers(self) -> int:
        """Active workers as they count (0 when not entered)."""
        return self.active_workers or 0


def _counted(value: int | bool | None) -> int | bool:
    return 0 if value is None else value


for _category in CATEGORIES:
    Seat.add_to_class(_category.key, _category_field(_category))
del _category


class HibernationTokens(models.Model):
    """How many of a seat's hibernation tokens lie in one comb sector."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="tokens")
    sector = models.ForeignKey(GameSector, on_delete=models.CASCADE, related_name="tokens")
    count = models.PositiveSmallIntegerField(
        _("hibernation tokens"), default=0, validators=[MaxValueValidator(TOKENS_PER_PLAYER)]
    )

    class Meta:
        verbose_name_plural = "hibernation tokens"
        constraints = [
            models.UniqueConstraint(fields=["seat", "sector"], name="tokens_unique_per_seat_and_sector"),
            _between("count", 0, TOKENS_PER_PLAYER, "tokens_count_range"),
        ]

    def __str__(self) -> str:
        return f"{self.seat} sector {self.sector.number}: {self.count}"


class CombLayout(models.Model):
    """A named comb layout (the sectors' printed awards), offered again to its owner (an account,
    or a visitor's browser) when they start a game."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="comb_layouts"
    )
    visitor = _visitor_field()
    name = models.CharField(_("layout name"), max_length=60)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "name"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(name=""), name="layout_name_not_empty"),
            models.UniqueConstraint(fields=["owner", "name"], name="layout_name_unique_per_owner"),
            models.UniqueConstraint(fields=["visitor", "name"], name="layout_name_unique_per_visitor"),
            _owner_or_visitor("layout_owner_or_visitor_not_both"),
        ]

    def __str__(self) -> str:
        return self.name


class CombLayoutSector(SectorAwards):
    layout = models.ForeignKey(CombLayout, on_delete=models.CASCADE, related_name="sectors")

    class Meta(SectorAwards.Meta):
        ordering = ["layout", "position"]
        constraints = [
            *SectorAwards.Meta.constraints,
            models.UniqueConstraint(fields=["layout", "position"], name="layout_sector_position_unique"),
        ]


class GameLink(models.Model):
    """A share link of a game: whoever opens it may score the game (edit) or watch it (view),
    without an account, until the owner revokes it."""

    class Access(models.TextChoices):
        EDIT = "edit", _("edit")
        VIEW = "view", _("view only")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="links")
    access = models.CharField(max_length=4, choices=Access.choices)
    token = models.CharField(max_length=64, unique=True, default=new_link_token, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    # The previous game's link whose holders follow into this game by this one (*Play again*
    # carries each live link on: ``services.games._table_moves_on``); none for a link the owner
    # made. A holder follows only by the link carried from theirs: a link renewed or revoked here
    # shuts out who followed through it, and whoever would still follow (``access.link_to_follow``).
    carried_from = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="carried_into"
    )

    class Meta:
        ordering = ["game", "access", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "access"], condition=models.Q(revoked_at__isnull=True), name="one_live_link_per_access"
            ),
            models.CheckConstraint(condition=models.Q(access__in=["edit", "view"]), name="link_access_edit_or_view"),
        ]

    def __str__(self) -> str:
        return f"{self.access} link of {self.game}"


class LinkHolder(models.Model):
    """A phone in the game by one of its links, for the owner's page (who is in, by which link):
    the session that opened the link, or followed into the game through it, named by its tag
    (``access.session_tag``), the account it is signed in to, and the player it said it is."""

    link = models.ForeignKey(GameLink, on_delete=models.CASCADE, related_name="holders")
    phone = models.CharField(max_length=32)  # the session's tag
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)  # the seat it said; 0 everyone; None not said
    followed = models.BooleanField(default=False)  # came by *Go to the next game*, not by opening the link
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["link", "at", "pk"]
        constraints = [models.UniqueConstraint(fields=["link", "phone"], name="link_holder_once_per_phone")]


class GameMember(models.Model):
    """A signed-in user who joined a game through one of its links: the game is in their history
    for as long as the link lives."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="joined_games")
    link = models.ForeignKey(GameLink, on_delete=models.CASCADE, related_name="members")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "link"], name="member_once_per_link")]


class Authored(models.Model):
    """What someone did to a game, when and by whom: an account (``by_user``: shown by its display
    name, never its login) or the name a link's holder gave (``by_name``); and, apart from the
    name, whether they came through one of the game's share links (``by_link_holder``), so that
    whatever a link's holder calls themselves, what they did is never taken for the owner's."""

    at = models.DateTimeField(default=timezone.now)
    by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    by_link = models.ForeignKey(GameLink, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    by_name = models.CharField(max_length=80, blank=True)  # who, in words, when no account says it
    # Made through a share link (an edit link's holder, signed in or not), never by the owner: set
    # with by_link, and kept when the link is gone (an imported change has no link, only this).
    by_link_holder = models.BooleanField(default=False)

    class Meta:
        abstract = True

    @property
    def author(self) -> str:
        """Who did it, by the name others know them by: the account's display name
        (``display_name``), else the name a link's holder gave; "" when neither says."""
        if self.by_user is not None:
            return display_name(self.by_user)
        return self.by_name.strip()


class Change(Authored):
    """One change of one pad field: what it was, what it became, when and by whom (``Authored``).
    Undoing a change is itself a change (``undoes``)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="changes")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="changes")
    field = models.CharField(max_length=40)  # a category key, "active_workers", or "t<sector position>"
    old = models.CharField(max_length=80, blank=True)  # as the field showed it ("" = not entered)
    new = models.CharField(max_length=80, blank=True)
    undoes = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="undone_by")

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["game", "-at"], name="change_game_recent")]

    def __str__(self) -> str:
        return f"{self.seat} {self.field}: {self.old!r} -> {self.new!r}"


class GameEvent(Authored):
    """The game finished, reopened by its owner to correct it, or its play length said by its
    owner: when and by whom (``Authored``), in its history beside its changes. A finished game
    takes no more values until reopened."""

    class What(models.TextChoices):
        FINISHED = "finished"
        REOPENED = "reopened"
        LENGTH = "length"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    what = models.CharField(max_length=8, choices=What.choices)
    # The play length said (LENGTH), in minutes: None when it was taken back. Nothing otherwise.
    minutes = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["game", "-at"], name="game_event_recent")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(what__in=["finished", "reopened", "length"]), name="game_event_what_known"
            ),
            models.CheckConstraint(
                condition=models.Q(what="length") | models.Q(minutes__isnull=True), name="game_event_minutes_of_length"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} {self.what} at {self.at:%Y-%m-%d %H:%M}"


def display_name(user) -> str:
    """The name an account is shown by to others: the name its holder gave (Django's
    ``get_full_name``: the sign-up form's and the *Your name* page's first_name), "" when they
    gave none. Never the login (the user name), which is half of what signs in."""
    return user.get_full_name().strip()


# ---------------------------------------------------------------------------------------------
# People across games


class Player(models.Model):
    """One person of one owner's games, across all of them: every seat of that owner's games
    whose name is this name (ignoring case) points here (``services.imports.game_store``). The Automa
    is its own record (``is_automa``, one per owner), never a person and never merged with one.
    Two records found to be the same person are merged (``services.people.players_merge``)."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=MAX_NAME_LENGTH)  # as first typed
    name_key = models.CharField(max_length=MAX_NAME_LENGTH * 3, editable=False)  # Seat.key_for(name)
    is_automa = models.BooleanField(_("Automa"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["owner", "name_key"]
        constraints = [
            # One person per name per owner; the Automa is apart (a person may even be called "Automa").
            models.UniqueConstraint(
                fields=["owner", "name_key"],
                condition=models.Q(is_automa=False),
                name="player_name_unique_per_owner_ignoring_case",
            ),
            models.UniqueConstraint(
                fields=["owner"], condition=models.Q(is_automa=True), name="player_one_automa_per_owner"
            ),
            models.CheckConstraint(condition=~models.Q(name=""), name="player_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        self.name_key = Seat.key_for(self.name)
        super().save(*args, **kwargs)


class PlayerAlias(models.Model):
    """Another name of a player: the name of a record merged into it (``services.people.players_merge``),
    so a later game with that name joins this player instead of making the record again."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="aliases")
    name = models.CharField(_("name"), max_length=MAX_NAME_LENGTH)  # as it was spelt
    name_key = models.CharField(max_length=MAX_NAME_LENGTH * 3, editable=False)  # Seat.key_for(name)

    class Meta:
        ordering = ["player", "name_key"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "name_key"], name="player_alias_unique_per_owner"),
            models.CheckConstraint(condition=~models.Q(name=""), name="player_alias_not_empty"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (alias of {self.player})"

    def save(self, *args, **kwargs):
        self.name_key = Seat.key_for(self.name)
        super().save(*args, **kwargs)


# ---------------------------------------------------------------------------------------------
# Tallies: the figures of the players list, a player's page and the statistics, kept up to date
# by ``scoring.tallies`` in the transaction of every change to a finished game, so that those
# pages read a few rows whatever the number of games.


class Tally(models.Model):
    """Sums over finished games' seats of one scope: all of them (``key`` ""), one faction's
    (``key`` the faction) or one seat number's (``key`` "1" to "5")."""

    class Scope(models.TextChoices):
        ALL = "all", _("all seats")
        FACTION = "faction", _("one faction")
        SEAT = "seat", _("one seat number")

    scope = models.CharField(max_length=8, choices=Scope.choices)
    key = models.CharField(max_length=MAX_FACTION_LENGTH, blank=True)
    games = models.PositiveIntegerField(default=0)  # distinct games (counted on their first seat)
    seats = models.PositiveIntegerField(default=0)  # seats played
    wins = models.PositiveIntegerField(default=0)  # seats that won (a shared first place counts for each)
    points = models.BigIntegerField(default=0)  # sum of the seats' totals
    winner_points = models.BigIntegerField(default=0)  # sum of the winners' totals
    vp_majority = models.BigIntegerField(default=0)  # sum of the comb majorities' VP

    class Meta:
        abstract = True


def _tally_category_field(category: Category) -> models.Field:
    return models.BigIntegerField(default=0, help_text=f"Sum of the VP of {category.key}")


for _category in CATEGORIES:
    Tally.add_to_class(f"vp_{_category.key}", _tally_category_field(_category))
del _category


class OwnerTally(Tally):
    """An account's sums over its finished games: all seats, each faction and each seat number."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tallies")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["owner", "scope", "key"], name="owner_tally_unique")]


class PlayerTally(Tally):
    """A player's sums over their finished games: all of them and each faction played; ``best``
    is their best total (on the ``all`` row)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="tallies")
    best = models.IntegerField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "scope", "key"], name="player_tally_unique")]


class RateCounter(models.Model):
    """How many requests one client address (or account name) made under one abuse limit in its
    current window (``scoring.web.limits``): one row per counted name, moved by one statement."""

    name = models.CharField(max_length=120, unique=True)  # rule:kind:period:digest of who
    window = models.BigIntegerField()  # which window of the period the count is of
    hits = models.PositiveIntegerField(default=0)
    expires = models.FloatField(db_index=True)  # when the window ends (a Unix time): then it may go

    def __str__(self) -> str:
        return f"{self.name}: {self.hits} in window {self.window}"


class WaitingFile(models.Model):
    """A game file checked and waiting to be added (*Your data*'s import, ``services.uploads``):
    a place of the waiting room, counted for its account, for the client address it was sent
    from and for the site, in files and in bytes, until the file is added or cancelled, its
    session signs out, or the hour from when the place was taken is over (``expires``: sending
    another file in its place replaces the file, never for longer)."""

    token = models.CharField(max_length=32, unique=True)  # what the session and the preview's form name it by
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    address = models.CharField(max_length=32)  # a digest of the client's address (as the rate limits count it)
    text = models.TextField()
    size = models.PositiveIntegerField()  # the text's bytes (UTF-8): what the room's bytes are counted in
    expires = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.token}: {self.size} bytes until {self.expires:%H:%M}"


# ---------------------------------------------------------------------------------------------
# An account's language (scoring/views/preferences.py applies it at every sign-in)


class LanguagePreference(models.Model):
    """The language an account chose last (or signed up in)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="language_preference"
    )
    language = models.CharField(_("language"), max_length=7)
    changed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language}"
