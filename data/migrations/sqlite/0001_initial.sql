-- 0001: tables in progress with their action log, finished games with scoresheets,
-- per-server players with ratings, per-server settings.
-- Times are unix seconds (REAL). Discord ids are INTEGER (64-bit snowflakes fit).

CREATE TABLE schema_version (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at REAL NOT NULL
);

-- A table in progress (or once in progress): everything needed to resume it after a restart.
CREATE TABLE game_tables (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    message_id    INTEGER,                       -- the table message, edited in place
    host_id       INTEGER NOT NULL,
    status        TEXT NOT NULL
                  CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled', 'broken')),
    rules_json    TEXT NOT NULL,                 -- Rules.model_dump_json()
    snapshot_json TEXT,                          -- Game.to_json(); NULL before the deal
    seats_json    TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(seats_json)),
                  -- [{name, user_id, computer_level, hand_message_id, dm_channel_id, timeouts}]
                  -- in seat order; always read and written whole with the table, so a save
                  -- is one UPDATE
    turn_deadline REAL,                          -- when the awaited seat times out; NULL = none
    broken_reason TEXT,                          -- why the table could not be resumed
    saves         INTEGER NOT NULL DEFAULT 0,    -- how many times it was saved
    created_at    REAL NOT NULL,
    updated_at    REAL NOT NULL
);
-- One open table per channel; resuming reads exactly the open ones.
CREATE UNIQUE INDEX game_tables_open_channel
    ON game_tables (channel_id) WHERE status IN ('lobby', 'playing');
CREATE INDEX game_tables_open ON game_tables (status) WHERE status IN ('lobby', 'playing');

-- Append-only: one row per accepted action, written in the same transaction as the snapshot.
CREATE TABLE action_log (
    id           INTEGER PRIMARY KEY,
    table_id     INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    seat         INTEGER,
    user_id      INTEGER,                        -- who acted; NULL for computers, timers, system
    action       TEXT NOT NULL,                  -- "bid", "play", "join", "deal", "timeout", ...
    payload_json TEXT NOT NULL,
    at           REAL NOT NULL
);
CREATE INDEX action_log_table ON action_log (table_id, id);
CREATE TRIGGER action_log_no_update BEFORE UPDATE ON action_log
BEGIN SELECT RAISE(ABORT, 'action_log is append-only'); END;

-- A finished game: one per table at most.
CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    table_id    INTEGER UNIQUE REFERENCES game_tables (id) ON DELETE SET NULL,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    preset      TEXT NOT NULL,
    rules_json  TEXT NOT NULL,
    players     INTEGER NOT NULL,
    hands       INTEGER NOT NULL,
    finished_at REAL NOT NULL
);
CREATE INDEX games_guild ON games (guild_id, id);

-- One row per seat of a finished game; the leaderboard reads only this table (and players).
CREATE TABLE game_seats (
    game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat           INTEGER NOT NULL,
    guild_id       INTEGER NOT NULL,
    user_id        INTEGER,                      -- NULL for a computer seat
    computer_level TEXT,
    display_name   TEXT NOT NULL,
    total          INTEGER NOT NULL,
    placing        INTEGER NOT NULL CHECK (placing >= 1),
    winner         INTEGER NOT NULL CHECK (winner IN (0, 1)),
    hands          INTEGER NOT NULL,             -- hands this seat bid in
    exact_bids     INTEGER NOT NULL,             -- hands where tricks == bid
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
-- Covering index for the human leaderboard and personal stats.
CREATE INDEX game_seats_human ON game_seats
    (guild_id, user_id, game_id, winner, total, hands, exact_bids) WHERE user_id IS NOT NULL;

CREATE TABLE game_hands (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    hand_number INTEGER NOT NULL,
    hand_size   INTEGER NOT NULL,
    dealer      INTEGER NOT NULL,
    trump_card  TEXT,                            -- Card.code, NULL when no card was turned
    trump_suit  TEXT,                            -- Suit letter, NULL for no trump
    PRIMARY KEY (game_id, hand_number)
) WITHOUT ROWID;

CREATE TABLE hand_scores (
    game_id     INTEGER NOT NULL,
    hand_number INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    bid         INTEGER NOT NULL,
    tricks      INTEGER NOT NULL,
    made        INTEGER NOT NULL CHECK (made IN (0, 1)),
    points      INTEGER NOT NULL,
    total       INTEGER NOT NULL,                -- running total after this hand
    PRIMARY KEY (game_id, hand_number, seat),
    FOREIGN KEY (game_id, hand_number) REFERENCES game_hands (game_id, hand_number)
        ON DELETE CASCADE
) WITHOUT ROWID;

-- A human's identity and skill rating in one server (openskill Plackett-Luce mu/sigma).
CREATE TABLE players (
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    display_name TEXT NOT NULL,                  -- the name at their latest finished game
    mu           REAL NOT NULL,
    sigma        REAL NOT NULL,
    rated_games  INTEGER NOT NULL DEFAULT 0,
    updated_at   REAL NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

CREATE TABLE guild_settings (
    guild_id        INTEGER PRIMARY KEY,
    default_preset  TEXT,                        -- NULL = the bot's default
    options_json    TEXT NOT NULL DEFAULT '{}',  -- default rule options over the preset
    turn_timeout    INTEGER,                     -- seconds; NULL = the bot's default
    allow_computers INTEGER NOT NULL DEFAULT 1 CHECK (allow_computers IN (0, 1)),
    updated_at      REAL NOT NULL
);
