"""Secret values: what `otp.code` gives a plugin — a value it can hold and pass on, never read.

A secret is opaque. It cannot become text (templates, `+`, string functions, `stringify`) or JSON (a result,
a stored or cached value, a request, a call's input, another ability's arguments), cannot be compared by order
and has no properties; `===` is identity, as for any object, and `type(x)` is `'secret'`. It stays opaque
inside lists and objects. Only the interpreter's ability step opens it, and only as the `code` argument of a
`verify.*` ability, so the mobile-token code reaches treehole's check and nothing else (threats.md S2).

The type lives in the language so that every host gets the same rule: the runtime creates secrets, and the
interpreter treats the answer of a secret ability as one even when a recorded test supplies plain text.
"""

from __future__ import annotations

from typing import Any, NoReturn

from tui.lang.expr.values import Opaque

#: How a secret shows wherever Python prints it (a repr in a message, a log line): never its text.
SECRET_MASK = "‹secret›"

#: Abilities whose answer is a secret value, whatever host answers them.
SECRET_ABILITIES = frozenset({"otp.code"})

#: The ability group that may receive a secret's text, and the one argument that may carry it.
ACCEPTING_GROUP = "verify"
ACCEPTING_ARGUMENT = "code"


class SecretValue(Opaque):
    """A secret a host ability handed out (`otp.code`): it names the ability, and hides its text."""

    __slots__ = ("_text", "ability")
    type_name = "secret"

    def __init__(self, ability: str, text: str) -> None:
        self.ability = ability
        """The ability that gave it, for error messages."""
        self._text = text

    def describe(self) -> str:
        return f"the secret value of {self.ability} (only {ACCEPTING_GROUP}.* abilities accept it)"

    def refusal(self) -> str:
        return (
            f"the value of {self.ability} is a secret: only {ACCEPTING_GROUP}.* abilities accept it "
            f"(as {ACCEPTING_ARGUMENT})"
        )

    # Python's own ways of printing or copying a value never show the text either.
    def __repr__(self) -> str:
        return f"<{SECRET_MASK} from {self.ability}>"

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return repr(self)

    def __copy__(self) -> SecretValue:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> SecretValue:
        return self

    def __reduce_ex__(self, protocol: Any) -> NoReturn:
        raise TypeError("a secret value cannot be pickled")


def as_secret(ability: str, answer: Any) -> Any:
    """A secret ability's answer as a secret value (text a host gave is wrapped; null stays null)."""
    if ability in SECRET_ABILITIES and answer.__class__ is str:
        return SecretValue(ability, answer)
    return answer


def open_for(ability: str, args: Any) -> Any:
    """The arguments of `ability` with a secret `code` opened to its text, when the ability is `verify.*`.

    A secret anywhere else (another ability, another argument, nested deeper) stays closed, so turning the
    arguments into JSON refuses it with the secret's own message.
    """
    if ability.partition(".")[0] != ACCEPTING_GROUP or args.__class__ is not dict:
        return args
    code = args.get(ACCEPTING_ARGUMENT)
    if isinstance(code, SecretValue):
        return {**args, ACCEPTING_ARGUMENT: code._text}
    return args
