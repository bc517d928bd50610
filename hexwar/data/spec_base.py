"""Base models of every data schema: strict keys and ``source:`` provenance on entries."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator

SOURCE_RE = re.compile(r"^(rules [A-Z]?\d+(\.\d+)*( ?[,;/] ?[A-Z]?\d+(\.\d+)*)*|authored|fixture|checked|geography .+|scenario .+|Ex \d.*|S1.*)(\b.*)?$")


class Strict(BaseModel):
    """Base model: unknown keys are errors (a typo must not pass silently)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def _check_source(v: str) -> str:
    if not SOURCE_RE.match(v):
        raise ValueError(
            f"source {v!r} must be 'rules N.N', 'authored', 'fixture', 'checked ...', 'geography ...' or 'scenario ...'"
        )
    return v


Source = Annotated[str, Field(description="provenance: 'rules 15.2', 'authored', 'fixture'")]


class Sourced(Strict):
    """An entry with provenance."""

    source: Source

    @field_validator("source")
    @classmethod
    def _source_ok(cls, v: str) -> str:
        return _check_source(v)


class Projection(Strict):
    """Local equirectangular projection: lon/lat of the plane origin (hex 0000's centre)."""

    lon0: float
    lat0: float
