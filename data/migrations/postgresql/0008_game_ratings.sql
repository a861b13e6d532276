-- 0008: the rating changes of each rated game (see ../sqlite/0008_game_ratings.sql).

CREATE TABLE game_ratings (
    game_id      BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id      BIGINT NOT NULL,
    display_name TEXT NOT NULL,
    mu_before    DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu_after     DOUBLE PRECISION NOT NULL,
    sigma_after  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
