"""Collection for the whole checkout (the tests and the package's doctests, pyproject.toml's
``testpaths``): a module that needs an extra which is not installed is not imported for its
doctests (the OpenSpiel classes subclass pyspiel's, ``pip install '.[openspiel]'``)."""

import importlib.util

collect_ignore = [] if importlib.util.find_spec("pyspiel") else ["hexwar/ai/openspiel_game.py"]
