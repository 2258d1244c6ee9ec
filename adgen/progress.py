"""Progress of a long run on standard error: which stage, which function, how many of how many.

The stages report through `step`; nothing is shown unless the command line turned the
report on (`start`), and then only once the run has lasted `DELAY` seconds, so that short
runs in a build print nothing. On a terminal one line is rewritten in place and cleared at
the end; elsewhere (asked for with --progress) a line is printed at most every `EVERY`
seconds and at each new stage.
"""
import sys
import time

DELAY = 2.0         # seconds before the first report
EVERY = 1.0         # seconds between lines when standard error is not a terminal
REDRAW = 0.1        # seconds between redraws on a terminal

_reporter = None


class _Reporter:
    def __init__(self, stream, rewrite):
        self.stream = stream
        self.rewrite = rewrite          # a terminal: one line, redrawn in place
        self.started = time.monotonic()
        self.last = None                # when the last line was shown
        self.stage = None
        self.width = 0                  # of the line on the terminal

    def show(self, stage, done, total, what):
        now = time.monotonic()
        if now - self.started < DELAY:
            self.stage = stage
            return
        new_stage = stage != self.stage
        self.stage = stage
        if self.last is not None and not new_stage and \
                now - self.last < (REDRAW if self.rewrite else EVERY):
            return
        self.last = now
        count = f" {done}/{total}" if total else ""
        line = f"adgen: {stage}{count}" + (f": {what}" if what else "")
        if self.rewrite:
            line = line[:_columns() - 1]
            self.stream.write("\r" + line.ljust(self.width))
            self.width = len(line)
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def finish(self):
        if self.rewrite and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()


def _columns():
    try:
        import shutil
        return max(20, shutil.get_terminal_size().columns)
    except (OSError, ValueError):
        return 80


def start(stream=None, force=False):
    """Report progress on stream (standard error) from now on: when it is a terminal, or
    always with force."""
    global _reporter
    stream = sys.stderr if stream is None else stream
    tty = bool(getattr(stream, "isatty", lambda: False)())
    _reporter = _Reporter(stream, tty) if tty or force else None


def stop():
    """End the report, clearing the line it left on a terminal."""
    global _reporter
    if _reporter is not None:
        _reporter.finish()
    _reporter = None


def step(stage, done=0, total=0, what=""):
    """The run is at stage (`differentiating, pass 2`), item done of total (0: no count),
    working on what (a function's name)."""
    if _reporter is not None:
        _reporter.show(stage, done, total, what)
