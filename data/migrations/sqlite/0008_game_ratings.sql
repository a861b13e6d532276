-- 0008: the rating changes of each rated game, as finish_game computed them, so a game whose
-- record landed while its caller was cancelled (or its connection dropped) is announced with
-- them all the same (read back by game id). Games stored before 0008 have none.

CREATE TABLE game_ratings (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL,
    display_name TEXT NOT NULL,
    mu_before    REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu_after     REAL NOT NULL,
    sigma_after  REAL NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;
