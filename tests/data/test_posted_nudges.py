"""The turn nudges on Discord, as stored (migration 0011), on every driver: one per person per
table, replaced by the next, forgotten only by the very message that was deleted."""

from __future__ import annotations

from data import PostedNudge, Store


async def test_a_nudge_is_kept_replaced_and_forgotten(store: Store) -> None:
    assert await store.posted_nudges(1) == []
    first, other = PostedNudge(1, 7, 70, 700), PostedNudge(1, 8, 80, 800)
    await store.keep_nudge(first)
    await store.keep_nudge(other)
    await store.keep_nudge(PostedNudge(2, 7, 70, 900))  # another table
    assert await store.posted_nudges(1) == [first, other]
    newer = PostedNudge(1, 7, 71, 701)
    await store.keep_nudge(newer)  # the person's next nudge replaces the first
    await store.forget_nudge(first)  # the old message's deletion leaves the newer one kept
    assert await store.posted_nudges(1) == [newer, other]
    await store.forget_nudge(newer)
    assert await store.posted_nudges(1) == [other]
    assert await store.posted_nudges(2) == [PostedNudge(2, 7, 70, 900)]
