-- 0002: running totals per server and human (see ../sqlite/0002_player_totals.sql), backfilled
-- from game_seats with the same definitions.

CREATE TABLE player_totals (
    guild_id     BIGINT NOT NULL,
    user_id      BIGINT NOT NULL,
    games        INTEGER NOT NULL,
    wins         INTEGER NOT NULL,
    points       BIGINT NOT NULL,
    hands        INTEGER NOT NULL,
    exact_bids   INTEGER NOT NULL,
    best_game    INTEGER NOT NULL,
    best_game_id BIGINT NOT NULL,
    streak       INTEGER NOT NULL,
    last_game_id BIGINT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

INSERT INTO player_totals (guild_id, user_id, games, wins, points, hands, exact_bids, best_game,
                           best_game_id, streak, last_game_id)
SELECT s.guild_id, s.user_id, COUNT(*), SUM(s.winner), SUM(s.total), SUM(s.hands),
       SUM(s.exact_bids), MAX(s.total),
       (SELECT b.game_id FROM game_seats b
        WHERE b.guild_id = s.guild_id AND b.user_id = s.user_id
        ORDER BY b.total DESC, b.game_id DESC LIMIT 1),
       (SELECT COUNT(*) FROM game_seats w
        WHERE w.guild_id = s.guild_id AND w.user_id = s.user_id
          AND w.game_id > COALESCE((SELECT MAX(l.game_id) FROM game_seats l
                                    WHERE l.guild_id = s.guild_id AND l.user_id = s.user_id
                                      AND l.winner = 0), 0)),
       MAX(s.game_id)
FROM game_seats s
WHERE s.user_id IS NOT NULL
GROUP BY s.guild_id, s.user_id;
