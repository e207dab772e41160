"""Coverage of the host (host/browserx) by package, from a combined coverage data file (`make test
COVERAGE=1`, which .ci/run runs). Every module of the package counts, imported or not: a module no
test ran shows as 0 %. Statement coverage; exits 1 when the whole host is under --fail-under.

    .venv/bin/python scripts/coverage_report.py [--data-file .coverage] [--fail-under 85] [--files 15]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import coverage

PACKAGE = Path(__file__).resolve().parents[1] / "host" / "browserx"


@dataclass
class Count:
    statements: int = 0
    missed: int = 0

    def add(self, other: Count) -> None:
        self.statements += other.statements
        self.missed += other.missed

    @property
    def percent(self) -> float:
        return 100.0 * (self.statements - self.missed) / self.statements if self.statements else 100.0


def package_of(path: Path) -> str:
    """browserx/actions/pointer.py → "actions"; a module beside the packages → "(top level)"."""
    parts = path.relative_to(PACKAGE).parts
    return parts[0] if len(parts) > 1 else "(top level)"


def measure(data_file: str) -> dict[Path, Count]:
    cov = coverage.Coverage(data_file=data_file)
    cov.load()
    counts: dict[Path, Count] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        _, statements, _, missing, _ = cov.analysis2(str(path))
        counts[path] = Count(len(statements), len(missing))
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-file", default=".coverage")
    parser.add_argument("--fail-under", type=float, default=0.0, help="percent, for the whole host")
    parser.add_argument("--files", type=int, default=15, help="how many of the least covered modules to list")
    args = parser.parse_args(argv)
    if not Path(args.data_file).exists():
        print(f"no coverage data at {args.data_file}", file=sys.stderr)
        return 1
    counts = measure(args.data_file)
    packages: dict[str, Count] = {}
    total = Count()
    for path, count in counts.items():
        packages.setdefault(package_of(path), Count()).add(count)
        total.add(count)
    print(f"{'host/browserx/ package':<24} {'statements':>10} {'missed':>7} {'cover':>7}")
    for name, count in sorted(packages.items()):
        print(f"{name:<24} {count.statements:>10} {count.missed:>7} {count.percent:>6.1f}%")
    print(f"{'total':<24} {total.statements:>10} {total.missed:>7} {total.percent:>6.1f}%")
    if args.files:
        least = sorted((c.percent, p) for p, c in counts.items() if c.missed)[: args.files]
        print(f"\nleast covered modules ({len(least)} shown):")
        for percent, path in least:
            count = counts[path]
            print(
                f"  {percent:5.1f}%  {count.missed:>4} of {count.statements:>4} missed  {path.relative_to(PACKAGE)}"
            )
    if total.percent < args.fail_under:
        print(
            f"\nhost coverage {total.percent:.1f}% is under the floor of {args.fail_under:g}%",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
