"""Base models of every data schema: strict keys and ``source:`` provenance on entries."""

from __future__ import annotations

import re
import typing
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

SOURCE_RE = re.compile(r"^(rules [A-Z]?\d+(\.\d+)*( ?[,;/] ?[A-Z]?\d+(\.\d+)*)*|authored|fixture|checked|geography .+|scenario .+|Ex \d.*|S1.*)(\b.*)?$")


class Strict(BaseModel):
    """Base model: unknown keys are errors (a typo must not pass silently)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @field_validator("*", mode="before")
    @classmethod
    def _no_bool_numbers(cls, v: Any, info: ValidationInfo) -> Any:
        """``true`` is not a number: pydantic would read it as 1 where a count is expected."""
        if isinstance(v, bool) and info.field_name and not _takes_bool(cls.model_fields[info.field_name].annotation):
            raise ValueError(f"{str(v).lower()} is not a number here")
        return v


def _takes_bool(t: Any) -> bool:
    if t is bool or t is Any:
        return True
    return any(_takes_bool(a) for a in typing.get_args(t))  # Optional[...], Union[...], Annotated[...]


def _check_source(v: str) -> str:
    if not SOURCE_RE.match(v):
        raise ValueError(
            f"source {v!r} must be 'rules N.N', 'authored', 'fixture', 'checked ...', 'geography ...' or 'scenario ...'"
        )
    return v


Source = Annotated[str, Field(description="provenance: 'rules' and the section, 'authored', 'fixture'")]

#: the section of its game's rules a chart serves (``rule:`` in its YAML): the checks of the
#: chart cite it, so a shared schema never names one game's numbering
Rule = Annotated[str, Field(max_length=40, description="the section of the game's rules this chart serves")]


def cite(rule: str) -> str:
    """`` (14.1)`` for a chart's rule, nothing for a chart that names none."""
    return f" ({rule})" if rule else ""


class Sourced(Strict):
    """An entry with provenance."""

    source: Source

    @field_validator("source")
    @classmethod
    def _source_ok(cls, v: str) -> str:
        return _check_source(v)


class Projection(Strict):
    """Local projection: lon/lat of the plane origin (hex 0000's centre), and its kind
    (``sinusoidal`` for a country-sized map: east-west distances true at every latitude)."""

    lon0: float
    lat0: float
    kind: Literal["equirectangular", "sinusoidal"] = "equirectangular"


#: limits on the numbers data files hold: far beyond any printed chart, short of what would
#: make the engine run away (a die pool of 10^8 dice, a deck of 10^9 cards)
SMALL = 100  # strengths, MP, fatigue points and limits, stacking points, VP per award
DICE = 20  # dice in one roll or one pool
COUNT = 1000  # copies of a card, units per side, turns
