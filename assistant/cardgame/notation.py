"""The table-command notation shared by the card games.

One command is one line, as a player would say it at the table::

    [ACTOR] VERB [ARG ...] [KEY=VALUE ...] [-> TARGET[,TARGET ...]]

The actor is a player (``A``, ``DS``) or absent for table-level steps (``end-round``).
Quoting follows the shell (``note "a judge's ruling"``). The notation round-trips exactly:

>>> c = Command.parse("A resolve r1+m2,r3 free=yes -> han,leia")
>>> (c.actor, c.verb, c.args, c.opts, c.targets)
('A', 'resolve', ('r1+m2,r3',), (('free', 'yes'),), ('han', 'leia'))
>>> str(c)
'A resolve r1+m2,r3 free=yes -> han,leia'
>>> Command.parse(str(c)) == c
True
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

from ..errors import NotationError, did_you_mean
from ..i18n import _

_WORD = re.compile(r"^[A-Za-z0-9_.:+/#,'-]+$")
_VERB = re.compile(r"^[a-z][a-z0-9-]*$")
#: the longest run of digits a command may hold: no count, cost or die at a table comes near it,
#: and Python refuses to read a number of over 4,300 digits (a ValueError deep in an engine)
MAX_DIGITS = 100
LONG_NUMBER = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")


def _quote(word: str) -> str:
    return word if _WORD.match(word) else shlex.quote(word)


@dataclass(frozen=True)
class Command:
    actor: str | None
    verb: str
    args: tuple[str, ...] = ()
    opts: tuple[tuple[str, str], ...] = ()
    targets: tuple[str, ...] = ()
    #: the arguments the verb has read (:meth:`arg`, :meth:`int_arg`, :meth:`signed_arg`, :meth:`rest`):
    #: one it never read is refused after it ran (:meth:`check_args_read`), as an option it does not take is
    read: set[int] = field(default_factory=set, compare=False, repr=False, hash=False)
    #: the game's bound on every number the command gives, either way (SW TCG: 999, reading R300),
    #: set once where the game reads its commands so that no verb can forget it; None: unbounded
    most: int | None = field(default=None, compare=False, repr=False, hash=False)

    @classmethod
    def parse(cls, text: str, actors: tuple[str, ...] = (), most: int | None = None) -> Command:
        """Parse one command. A first word that is not a verb (lower-case) is the actor; with
        ``actors`` given it must be one of them. ``most`` is the game's bound on its numbers."""
        long = LONG_NUMBER.search(text)
        if long is not None:
            shown_text = text if len(text) <= 80 else text[:40] + "..." + text[-20:]
            raise NotationError(_("{text!r}: a number of {n:,} digits; a command's numbers have at most {limit} digits").format(
                text=shown_text, n=len(long.group()), limit=MAX_DIGITS))
        try:
            words = shlex.split(text)
        except ValueError as e:
            raise NotationError(_("{text!r}: {e}").format(text=text, e=e)) from None
        targets: tuple[str, ...] = ()
        if "->" in words:
            i = words.index("->")
            after = words[i + 1:]
            if len(after) != 1 or not after[0]:
                raise NotationError(_("{text!r}: '->' is followed by one comma-separated list of targets, e.g. '-> han,leia'").format(text=text))
            targets = tuple(t for t in after[0].split(","))
            if any(not t for t in targets):
                raise NotationError(_("{text!r}: an empty target in {after!r}").format(text=text, after=after[0]))
            words = words[:i]
        if not words:
            raise NotationError(_("{text!r} is not a command: expected '[PLAYER] VERB ...', e.g. 'A pass'").format(text=text))
        actor = None
        by_lower = {a.lower(): a for a in actors}
        named = by_lower.get(words[0].lower()) if len(words) > 1 else None
        if not _VERB.match(words[0]) or named is not None:
            actor, words = words[0], words[1:]
            if actors:
                if named is None:
                    raise NotationError(_("{text!r}: {actor!r} is not a player here ({names})").format(text=text, actor=actor, names=', '.join(actors)))
                actor = named  # player names are case-insensitive: 'ds pass' is 'DS pass'
        if not words or not _VERB.match(words[0]):
            raise NotationError(_("{text!r}: expected a verb (lower-case word such as 'pass') after {actor!r}").format(text=text, actor=actor))
        verb, rest = words[0], words[1:]
        args: list[str] = []
        opts: list[tuple[str, str]] = []
        for w in rest:
            k, eq, v = w.partition("=")
            if eq and re.match(r"^[a-z][a-z0-9-]*$", k):
                if any(k == seen for seen, _unused in opts):
                    raise NotationError(_("{text!r}: option {k!r} given twice").format(text=text, k=k))
                opts.append((k, v))
            else:
                if opts:
                    raise NotationError(_("{text!r}: argument {w!r} after the options; write arguments first, then KEY=VALUE").format(text=text, w=w))
                args.append(w)
        return cls(actor, verb, tuple(args), tuple(opts), targets, most=most)

    def __str__(self) -> str:
        words = ([self.actor] if self.actor else []) + [self.verb] + list(self.args) + [f"{k}={v}" for k, v in self.opts]
        out = " ".join(_quote(w) if "=" not in w else w.split("=", 1)[0] + "=" + _quote(w.split("=", 1)[1]) for w in words)
        return out + (" -> " + ",".join(self.targets) if self.targets else "")

    def check_options(self, allowed: set[str], usage: str) -> None:
        """Refuse an option the verb does not take (a typo must not be silently ignored)."""
        for k, _unused in self.opts:
            if k not in allowed:
                known = ", ".join(f"{a}=" for a in sorted(allowed)) or "none"
                raise NotationError(
                    _("{self!r}: {verb} takes no option {k}={hint}; its options: {known} ({usage})").format(
                        self=str(self), verb=self.verb, k=k, hint=did_you_mean(k, sorted(allowed)), known=known, usage=usage
                    )
                )

    def opt(self, key: str, default: str | None = None) -> str | None:
        return next((v for k, v in self.opts if k == key), default)

    def int_opt(self, key: str, default: int | None = None, bounded: bool = True) -> int | None:
        """The option's whole number; ``bounded=False`` leaves the game's bound to the verb, which
        refuses a number past it in its own words (SW TCG's set-stat, reading R286)."""
        v = self.opt(key)
        if v is None:
            return default
        if not re.fullmatch(r"\d+", v):
            raise NotationError(_("{self!r}: {key}={v!r} is not a whole number").format(self=str(self), key=key, v=v))
        return self._within(int(v), key) if bounded else int(v)

    def _within(self, n: int, named: str) -> int:
        """``n``, or a refusal where it is past the game's bound either way (:attr:`most`: a boost
        of 10**20 was recorded and carried into every later answer)."""
        most = self.most
        if most is None or -most <= n <= most:
            return n
        if n > most:
            raise NotationError(_("{self!r}: {n} is more than any card gives ({what}); a number in this game is at most {most}").format(
                self=str(self), what=named, n=n, most=most))
        raise NotationError(_("{self!r}: {n} is less than any card gives ({what}); a number in this game is at least {least}").format(
            self=str(self), what=named, n=n, least=-most))

    def flag(self, key: str) -> bool:
        v = self.opt(key)
        if v is None:
            return False
        if v not in ("yes", "no"):
            raise NotationError(_("{self!r}: {key}={v!r} must be yes or no").format(self=str(self), key=key, v=v))
        return v == "yes"

    def check_args_read(self, usage: str) -> None:
        """Refuse the arguments the verb did not read: 'A pass now please' and 'DS build tie 1 LS pass'
        (two plays on one line) were recorded as the pass and the build, the rest silently dropped."""
        unread = [w for i, w in enumerate(self.args) if i not in self.read]
        if unread:
            raise NotationError(
                _("{self!r}: {verb} does not take {words!r}; write one play a line ({usage})").format(
                    self=str(self), verb=self.verb, words=" ".join(unread), usage=usage
                )
            )

    def rest(self, i: int = 0) -> tuple[str, ...]:
        """The arguments from the ``i``-th on, for a verb that takes any number of them."""
        self.read.update(range(i, len(self.args)))
        return self.args[i:]

    def int_arg(self, i: int, what: str) -> int:
        self.read.add(i)
        if i >= len(self.args) or not re.fullmatch(r"\d+", self.args[i]):
            got = repr(self.args[i]) if i < len(self.args) else _("nothing")
            raise NotationError(
                _("{self!r}: expected {what} (a whole number) as argument {value}, got {got}").format(self=str(self), what=_(what), value=i + 1, got=got)
            )
        return self._within(int(self.args[i]), _(what))

    def signed_arg(self, i: int, what: str) -> int:
        self.read.add(i)
        if i >= len(self.args) or not re.fullmatch(r"[+-]?\d+", self.args[i]):
            got = repr(self.args[i]) if i < len(self.args) else _("nothing")
            raise NotationError(
                _("{self!r}: expected {what} (a number such as +10 or -5) as argument {value}, got {got}").format(
                    self=str(self), what=_(what), value=i + 1, got=got
                )
            )
        return self._within(int(self.args[i]), _(what))

    def arg(self, i: int, what: str) -> str:
        self.read.add(i)
        if i >= len(self.args):
            raise NotationError(_("{self!r}: missing {what} (argument {value})").format(self=str(self), what=_(what), value=i + 1))
        return self.args[i]


#: the game log's own commands: typed as a play ('do "DS status"') they are no verb of the table
LOG_COMMANDS = ("status", "log", "undo", "replay", "export", "verify", "check")


def unknown_verb(cmd: Command, known: list[str], game: str) -> NotationError:
    """The refusal of a verb the game does not have, with the nearest verbs; a log command typed
    as a play is named as the command it is (``GAME do "DS status"``: ``python -m assistant GAME
    status``)."""
    if cmd.verb in LOG_COMMANDS:
        return NotationError(
            _("{cmd!r}: {verb!r} is a command of its own, not a play: python -m assistant {game} {verb}").format(
                cmd=str(cmd), verb=cmd.verb, game=game
            )
        )
    return NotationError(
        _("{cmd!r}: unknown verb {verb!r}{hint}; verbs: {names}").format(
            cmd=str(cmd), verb=cmd.verb, hint=did_you_mean(cmd.verb, known), names=", ".join(known)
        )
    )
