"""The study scripts' figures: matplotlib with its file backend (no display
needed), and one way to write a figure as the PNG beside a README table."""
import sys


def pyplot():
    """matplotlib.pyplot, drawing to files only."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def save(fig, path, dpi):
    """Lays out `fig`, writes it to `path` and says so on stderr."""
    fig.tight_layout()
    fig.savefig(path, dpi=dpi)
    print(f"wrote {path}", file=sys.stderr)
