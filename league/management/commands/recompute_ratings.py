"""Recompute rating pools from their events, with a progress bar.

The result equals the incremental ratings exactly (same kernel, same order);
run it after fixing data by hand, or to audit: it reports how many events it
had to change (0 means the stored history was already consistent).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO, cast

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from league.models import RatingPool
from league.ratings.recompute import rating_recompute_pool


class Command(BaseCommand):
    help = "Recompute Elo pools from their rating events (all, one pool or one game)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--pool", type=int, help="recompute only this pool id")
        parser.add_argument("--game", help="recompute every pool of this game")
        parser.add_argument(
            "--no-progress", action="store_true", help="no progress bar (for logs)"
        )

    def handle(self, *args, **options) -> None:
        pools = RatingPool.objects.order_by("pk")
        if options["pool"] is not None:
            pools = pools.filter(pk=options["pool"])
            if not pools.exists():
                raise CommandError(f"no rating pool with id {options['pool']}")
        if options["game"]:
            pools = pools.filter(game=options["game"])
        quiet = options["no_progress"]
        for pool in pools:

            def progress(
                stream: Iterable[tuple[int, int]], total: int, pool=pool
            ) -> Iterable[tuple[int, int]]:
                return tqdm(
                    stream,
                    total=total,
                    desc=f"pool {pool.pk} {pool}",
                    unit="match",
                    disable=quiet,
                    # The raw stream: the wrapper would end each bar update
                    # with a newline (django-stubs do not declare _out).
                    file=cast(TextIO, self.stderr._out),
                )

            result = rating_recompute_pool(pool_id=pool.pk, progress=progress)
            self.stdout.write(
                f"pool {pool.pk} ({pool}): {result.matches} matches, "
                f"{result.ratings} ratings, {result.events_changed} events changed"
            )
