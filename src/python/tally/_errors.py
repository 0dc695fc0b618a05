"""tally's errors as Python exceptions: the message and location of the
diagnostic the command printed (``tally: FILE:LINE:COL: error: MSG``)."""

import re

_DIAG = re.compile(r"^tally(?: [a-z]+)?: (?:(.+?):(\d+):(\d+): )?"
                   r"(?:error: |limit: |internal error: )?(.*)$")


class Error(Exception):
    """A tally failure.  ``message`` is tally's first diagnostic,
    ``source``/``line``/``column`` where it points (None when it points
    nowhere), ``status`` the CLI's exit status, ``stderr`` all of it."""

    def __init__(self, stderr, status):
        self.stderr = stderr
        self.status = status
        self.message, self.source = stderr.strip() or "failed", None
        self.line = self.column = None
        for text in stderr.splitlines():
            m = _DIAG.match(text)
            if m:
                self.source = m.group(1)
                if m.group(2):
                    self.line, self.column = int(m.group(2)), int(m.group(3))
                self.message = m.group(4)
                break
        super().__init__(self.message if self.line is None else
                         "%s:%d:%d: %s" % (self.source, self.line,
                                           self.column, self.message))


class InputError(Error):
    """A usage or input error (exit 2): syntax, unknown names, bad words,
    bad options."""


class LimitError(Error):
    """A limit was reached (exit 4): timeout=, max_memory=, max_states=."""


class InternalError(Error):
    """Two independent paths disagreed, or a bug (exit 70)."""


def from_status(stderr, status):
    cls = {2: InputError, 4: LimitError, 70: InternalError}.get(status, Error)
    return cls(stderr, status)
