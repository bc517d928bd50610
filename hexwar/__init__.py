"""hexwar."""

import os as _os

if _os.environ.get("HEXWAR_NATIVE", "") not in ("", "0"):  # the compiled engine (hexwar/native.py)
    from hexwar import native as _native

    _native.enable()
