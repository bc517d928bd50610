"""Typed orders. Every decision a side makes (a move, an assault, a choice of how to take a
combat result, a card) is an order; orders are frozen, comparable and round-trip as dicts.

Order kinds are namespaced per game: each game lists the order types it understands in an
:class:`OrderKinds`, so two games may both have a ``place`` order (Assault on Narvik's German
arrivals, Kampen om Norge's battalions) and a log is always read with its own game's kinds.
"""

from __future__ import annotations

import json
from contextlib import nullcontext
from dataclasses import asdict, dataclass, fields
from typing import (
    Any,
    Callable,
    ClassVar,
    ContextManager,
    Hashable,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
    TypeVar,
)

T = TypeVar("T", bound=Hashable)


class IllegalOrder(ValueError):
    """An order the rules forbid. ``rule`` names the section; the state is left untouched."""

    def __init__(self, reason: str, rule: str = ""):
        self.reason = reason
        self.rule = rule
        super().__init__(f"{reason} ({rule})" if rule else reason)


@dataclass(frozen=True)
class Refusals:
    """The rule sections the engine cites, in the game's own numbering, when it refuses an
    order: the game is over (``over``), the object is no order of this game or a malformed
    one (``foreign``), and the order is not one the rules allow now (``not_now``: the
    default of :meth:`Game.decision_rule`)."""

    over: str
    foreign: str
    not_now: str


@dataclass(frozen=True)
class Order:
    """Base of all orders: the side giving it."""

    kind: ClassVar[str] = "order"
    side: str

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["kind"] = self.kind
        return d

    def text(self) -> str:
        """Return the short syntax a player types (``move 1SG 1710>1810``)."""
        return self.kind

    def family(self) -> tuple[Any, ...] | None:
        """The listed orders this one may vary (issue 70): where the rules let a player choose
        freely within an order the list gives one or a few ways of (any route to a place, any
        subset of attackers, any split of points), an order of the same family as a listed one
        is offered too, and the game's handler checks its free part in full
        (``Game.accepts``). None (the default): no freedom, the order itself must be listed."""
        return None


class OrderKinds:
    """The order types one game understands, by kind: a game's namespace of orders; ``rule``
    is the section a refusal of anything else cites (the game's, as its ``Refusals.foreign``).

    >>> kinds = OrderKinds("example", [Pass, Move], rule="2")
    >>> kinds.from_dict({"kind": "move", "side": "allies", "unit": "1SG", "path": ["1710", "1810"]})
    Move(side='allies', unit='1SG', path=('1710', '1810'))
    >>> kinds.from_dict({"kind": "assault", "side": "allies"})
    Traceback (most recent call last):
    ...
    hexwar.core.orders.IllegalOrder: example has no order kind 'assault'; its kinds: move, pass (2)
    """

    def __init__(self, game: str, types: Iterable[type[Order]], rule: str):
        self.game = game
        self.rule = rule  # the section a refusal of anything that is no order of the game cites
        self.types: dict[str, type[Order]] = {}
        for cls in types:
            if cls.kind in self.types and self.types[cls.kind] is not cls:
                raise ValueError(f"{game}: two order types share the kind {cls.kind!r}")
            self.types[cls.kind] = cls
        self._adapters: dict[str, Any] = {}

    def __contains__(self, order: object) -> bool:
        return isinstance(order, Order) and self.types.get(order.kind) is type(order)

    def from_dict(self, d: Any) -> Order:
        """Rebuild an order from :meth:`Order.to_dict` output.

        Anything that is not an order of this game (an unknown kind, a missing or unknown
        field, a value of the wrong type) raises :class:`IllegalOrder` naming it.
        """
        if not isinstance(d, Mapping) or not isinstance(d.get("kind"), str):
            raise IllegalOrder(f"an order is a mapping with a 'kind', not {d!r}", self.rule)
        kind = d["kind"]
        cls = self.types.get(kind)
        if cls is None:
            raise IllegalOrder(f"{self.game} has no order kind {kind!r}; its kinds: {', '.join(sorted(self.types))}", self.rule)
        body = {k: v for k, v in d.items() if k != "kind"}
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(body) - names)
        if unknown:
            raise IllegalOrder(f"{kind} order has no field {unknown[0]!r}", self.rule)
        adapter = self._adapters.get(kind)
        if adapter is None:
            from pydantic import TypeAdapter

            adapter = self._adapters[kind] = TypeAdapter(cls)
        from pydantic import ValidationError

        try:  # strict JSON validation: lists become tuples, nothing else is coerced
            order: Order = adapter.validate_json(json.dumps(body), strict=True)
            return order
        except (ValidationError, TypeError, ValueError) as exc:
            if isinstance(exc, ValidationError):
                e = exc.errors()[0]
                where = ".".join(str(p) for p in e["loc"]) or kind
                raise IllegalOrder(f"{kind} order field {where}: {e['msg']}", self.rule) from None
            raise IllegalOrder(f"{kind} order: {exc}", self.rule) from None


@dataclass(frozen=True)
class Pass(Order):
    """Pass: give up the decision (a game says what passing does: its initiative, its phase)."""

    kind: ClassVar[str] = "pass"

    def text(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Move(Order):
    """Move one unit along a path of adjacent locations (a game's movement rules check it)."""

    kind: ClassVar[str] = "move"
    unit: str = ""
    path: tuple[str, ...] = ()

    def text(self) -> str:
        return f"move {self.unit} {'>'.join(self.path)}"

    def family(self) -> tuple[Any, ...] | None:
        """Any route between a listed move's ends (the list gives one a destination)."""
        return (self.kind, self.side, self.unit, self.path[:1], self.path[-1:])


class OrderList(list[Order]):
    """A list of legal orders that also knows where each kind's orders lie in it: ``parts``
    are the (kind, orders) it was built from, in list order (kind None for a part of mixed
    kinds). Every reader of a list reads it as one; a reader choosing a kind first (the
    random bot) takes :func:`order_kinds` and :func:`orders_of_kind` from the parts instead
    of a pass over every order.

    Any change made to it as a list drops ``parts`` (None), so nothing reads them stale.

    >>> legal = OrderList()
    >>> legal.add([Pass("allies")], "pass")
    >>> legal.add([Move("allies", "1SG", ("1710", "1810")), Move("allies", "2SG", ("1710", "1711"))], "move")
    >>> order_kinds(legal), [o.unit for o in orders_of_kind(legal, "move")], len(legal)
    (['move', 'pass'], ['1SG', '2SG'], 3)
    >>> legal.sort(key=lambda o: o.kind); legal.parts is None
    True
    """

    __slots__ = ("parts",)

    def __init__(self, orders: Iterable[Order] = ()):
        list.__init__(self, orders)
        self.parts: list[tuple[str | None, Sequence[Order]]] | None = [(None, self[:])] if self else []

    def add(self, orders: Sequence[Order], kind: str | None = None) -> None:
        """Append ``orders``, each of ``kind`` (None: of any kinds). The list ``orders`` is
        kept as a part, not copied: it must not change afterwards (the engine's kept lists
        never do)."""
        if orders:
            list.extend(self, orders)
            if self.parts is not None:
                self.parts.append((kind, orders))

    def join(self, other: Sequence[Order]) -> None:
        """Append another list of orders, with its parts when it is an OrderList."""
        if type(other) is OrderList and other.parts is not None:
            list.extend(self, other)
            if self.parts is not None:
                self.parts += other.parts
        else:
            self.add(other)


class Lazy:
    """One item of a :class:`Menu`'s deferred part (``Menu.defer_each``): the (kind, orders)
    chunks of one ``key`` (a unit, say), worked out by ``make(key)`` on first use and kept,
    so a reader that weighs the items one by one (a priority bot bounding a unit's moves
    before it asks for them) and a later reading of the whole part share the work."""

    __slots__ = ("key", "make", "chunks")

    def __init__(self, key: Any, make: Callable[[Any], Iterable[tuple[str, Sequence[Order]]]]):
        self.key = key
        self.make = make
        self.chunks: list[tuple[str, Sequence[Order]]] | None = None

    def worked(self) -> list[tuple[str, Sequence[Order]]]:
        """The item's chunks, empty ones left out (worked out once)."""
        if self.chunks is None:
            self.chunks = [(k, o) for k, o in self.make(self.key) if o]
        return self.chunks


class _Deferred:
    """A part of a :class:`Menu` worked out only as far as a question needs: ``chunks`` yields
    (kind, orders) in list order, each of one of ``kinds`` (the kinds it may hold);
    ``knows(kind)``, when given, tells without working the part out whether it holds an
    order of that kind (True or False), or None when only working it out can tell.
    ``items``: the :class:`Lazy` items ``chunks`` is made of, when the part was deferred
    item by item (``Menu.defer_each``)."""

    __slots__ = ("kinds", "gen", "chunks", "found", "knows", "items")

    def __init__(self, kinds: Iterable[str], chunks: Iterator[tuple[str, Sequence[Order]]],
                 knows: Callable[[str], bool | None] | None = None, items: Sequence[Lazy] | None = None):
        self.kinds = frozenset(kinds)
        self.gen: Iterator[tuple[str, Sequence[Order]]] | None = chunks
        self.chunks: list[tuple[str | None, Sequence[Order]]] = []
        self.found: set[str] = set()  # the kinds it is known to hold
        self.knows = knows
        self.items = items

    def undeclared(self, kind: str) -> ValueError:
        """The error of a chunk of a kind the part did not declare (a bug in its game)."""
        return ValueError(f"a deferred part listed {kind!r} orders, not one of its kinds {sorted(self.kinds)}")

    def pull(self, until: str | None) -> None:
        """Work out chunks until one of kind ``until`` (None: to the end; then ``gen`` is None)."""
        assert self.gen is not None
        kinds, chunks, found = self.kinds, self.chunks, self.found
        for kind, orders in self.gen:
            if orders:
                if kind not in kinds:
                    raise self.undeclared(kind)
                chunks.append((kind, orders))
                found.add(kind)
                if kind == until:
                    return
        self.gen = None


class Menu:
    """A decision's legal orders as parts, some of them worked out only when read: what a
    reader choosing a kind first (the random bot) needs, without listing the orders of the
    kinds it does not choose. :func:`order_kinds` and :func:`orders_of_kind` read a menu as
    they read the whole list (:meth:`orders`), with the same answers in the same order; a
    deferred part is worked out only until its kinds are known, or in full for its orders.
    ``enter()`` is the context a deferred part is worked out in (a game's per-listing memo).
    The state must not change while its menu is read.

    >>> def units():
    ...     yield "move", [Move("allies", "1SG", ("1710", "1810"))]
    ...     raise AssertionError("not worked out: a move is known to exist")
    >>> menu = Menu()
    >>> menu.add([Pass("allies")], "pass")
    >>> menu.defer(["move"], units())
    >>> order_kinds(menu), [o.kind for o in orders_of_kind(menu, "pass")]
    (['move', 'pass'], ['pass'])
    """

    __slots__ = ("parts", "enter")

    def __init__(self, enter: Callable[[], ContextManager[Any]] | None = None):
        self.parts: list[Any] = []  # (kind, orders) as in an OrderList's parts, or _Deferred
        self.enter = enter

    @classmethod
    def of(cls, orders: Sequence[Order]) -> "Menu":
        """A menu of a list of orders already made (its parts when it is an OrderList)."""
        menu = cls()
        menu.join(orders)
        return menu

    def add(self, orders: Sequence[Order], kind: str | None = None) -> None:
        """As :meth:`OrderList.add`."""
        if orders:
            self.parts.append((kind, orders))

    def join(self, other: Sequence[Order]) -> None:
        """As :meth:`OrderList.join`."""
        if type(other) is OrderList and other.parts is not None:
            self.parts += other.parts
        else:
            self.add(other)

    def defer(self, kinds: Iterable[str], chunks: Iterator[tuple[str, Sequence[Order]]],
              knows: Callable[[str], bool | None] | None = None) -> None:
        """A part worked out only when read: ``chunks`` yields (kind, orders), each kind one
        of ``kinds``, in list order (an empty ``orders`` is skipped). ``knows(kind)`` may
        tell without working it out whether it holds that kind (True, False; None: not
        known): it must agree with what working it out would show."""
        self.parts.append(_Deferred(kinds, chunks, knows))

    def defer_each(self, kinds: Iterable[str], items: Sequence[Lazy],
                   knows: Callable[[str], bool | None] | None = None) -> None:
        """A part deferred item by item: the chunks of each :class:`Lazy` item in turn, in
        list order, as :meth:`defer` reads them; a reader weighing items one by one
        (:meth:`pieces`) works out only those it needs (:meth:`work`), and an item worked
        out once is never worked out again.

        >>> made = []
        >>> def moves(unit):
        ...     made.append(unit)
        ...     return [("move", [Move("allies", unit, ("1710", "1810"))])]
        >>> menu = Menu()
        >>> menu.add([Pass("allies")], "pass")
        >>> menu.defer_each(["move"], [Lazy("1SG", moves), Lazy("2SG", moves)])
        >>> first, one, two = menu.pieces()
        >>> first[0], one.key, made
        ('pass', '1SG', [])
        >>> [o.unit for _, orders in menu.work(two) for o in orders], made
        (['2SG'], ['2SG'])
        >>> [o.text() for o in menu.orders()], made  # 2SG's moves as worked out before
        (['pass', 'move 1SG 1710>1810', 'move 2SG 1710>1810'], ['2SG', '1SG'])
        """
        self.parts.append(_Deferred(kinds, (c for it in items for c in it.worked()), knows, items))

    def pieces(self) -> list[Any]:
        """The parts in list order for a reader that weighs them one by one: (kind, orders)
        as :func:`list_parts` gives them, each item of a part deferred item by item as its
        :class:`Lazy` (to be worked out with :meth:`work`, or passed over), and any other
        deferred part worked out in full. The same orders as :meth:`orders`, in its order."""
        out: list[Any] = []
        for p in self.parts:
            if type(p) is not _Deferred:
                out.append(p)
            elif p.items is not None:
                out += p.items  # its items, each worked out when asked (or kept from before)
            else:
                self._work(p, None)
                out += p.chunks
        return out

    def work(self, item: Lazy) -> list[tuple[str, Sequence[Order]]]:
        """An item's chunks (:meth:`pieces`), worked out in the menu's context."""
        if item.chunks is None:
            with self.enter() if self.enter is not None else nullcontext():
                return item.worked()
        return item.chunks

    def _work(self, part: _Deferred, until: str | None) -> None:
        """Work ``part`` out until it has shown ``until`` (None: in full), unless its
        ``knows`` test tells whether it holds an ``until``."""
        if part.gen is None or (until is not None and until in part.found):
            return
        with self.enter() if self.enter is not None else nullcontext():
            if until is not None and part.knows is not None:
                known = part.knows(until)
                if known is not None:
                    if known:
                        part.found.add(until)
                    return
            part.pull(until)

    def _flat(self, kind: str | None) -> list[tuple[str | None, Sequence[Order]]]:
        """The parts in list order, the deferred ones worked out in full (``kind``: only
        those that may hold it)."""
        out: list[tuple[str | None, Sequence[Order]]] = []
        for p in self.parts:
            if type(p) is _Deferred:
                if kind is None or kind in p.kinds:
                    self._work(p, None)
                    out += p.chunks
            else:
                out.append(p)
        return out

    def kinds(self) -> list[str]:
        """``order_kinds(self.orders())``, working deferred parts out only until each of their
        kinds is found (or they end)."""
        seen: set[str] = set()
        for p in self.parts:
            if type(p) is _Deferred:
                for k in sorted(p.kinds):
                    self._work(p, k)
                seen |= p.found
            else:
                _add_kinds(seen, (p,))
        return sorted(seen)

    def of_kind(self, kind: str) -> Sequence[Order]:
        """``orders_of_kind(self.orders(), kind)``, working out only the parts that may hold it."""
        return _of_kind(self._flat(kind), kind)

    def orders(self) -> OrderList:
        """Every order, in list order, as one OrderList (with its parts)."""
        out = OrderList()
        parts = self._flat(None)  # none empty: add and pull skip empty lists
        extend = list.extend
        for _, orders in parts:
            extend(out, orders)
        out.parts = parts
        return out

    def __bool__(self) -> bool:
        """Whether there is any order (a deferred part worked out until a kind shows)."""
        for p in self.parts:
            if type(p) is not _Deferred:
                return True
            for k in sorted(p.kinds):
                self._work(p, k)
                if p.found:
                    return True
        return False


def order_kinds(orders: Sequence[Order] | Menu) -> list[str]:
    """The kinds of order in ``orders``, sorted (``sorted({o.kind for o in orders})``): an
    OrderList's read from its parts, a :class:`Menu`'s as far as it must be worked out, any
    other list from its orders' classes."""
    if isinstance(orders, Menu):
        return orders.kinds()
    parts = orders.parts if type(orders) is OrderList else None
    if parts is None:
        types: set[type[Order]] = set(map(type, orders))  # far fewer classes than orders
        return sorted({t.kind for t in types})
    seen: set[str] = set()
    _add_kinds(seen, parts)
    return sorted(seen)


def _add_kinds(seen: set[str], parts: Iterable[tuple[str | None, Sequence[Order]]]) -> None:
    """Add the kinds of (kind, orders) parts to ``seen``: a part's kind, or each of its
    orders' when it is of mixed kinds (None)."""
    for kind, part in parts:
        if kind is None:
            types: set[type[Order]] = set(map(type, part))  # far fewer classes than orders
            seen.update(t.kind for t in types)
        else:
            seen.add(kind)


def list_parts(orders: Sequence[Order]) -> Sequence[tuple[str | None, Sequence[Order]]]:
    """A list's (kind, orders) parts in list order, for a reader that weighs it part by part
    (a priority bot scoring a unit's moves together): an OrderList's own, any other list as
    one part of mixed kinds (None).

    >>> legal = OrderList()
    >>> legal.add([Pass("allies")], "pass")
    >>> [k for k, _ in list_parts(legal)], [k for k, _ in list_parts([Pass("allies")])]
    (['pass'], [None])
    """
    if type(orders) is OrderList and orders.parts is not None:
        return orders.parts
    return ((None, orders),)


def orders_of_kind(orders: Sequence[Order] | Menu, kind: str) -> Sequence[Order]:
    """The orders of one kind, in list order (``[o for o in orders if o.kind == kind]``); an
    OrderList's read through its parts (a :class:`Menu`'s working out only those that may
    hold the kind), not copied: read the answer, do not change it."""
    if isinstance(orders, Menu):
        return orders.of_kind(kind)
    parts = orders.parts if type(orders) is OrderList else None
    if parts is None:
        return [o for o in orders if o.kind == kind]
    return _of_kind(parts, kind)


def _of_kind(parts: Sequence[tuple[str | None, Sequence[Order]]], kind: str) -> Sequence[Order]:
    chunks: list[Sequence[Order]] = []
    for k, part in parts:
        if k == kind:
            chunks.append(part)
        elif k is None:
            mixed = [o for o in part if o.kind == kind]
            if mixed:
                chunks.append(mixed)
    return chunks[0] if len(chunks) == 1 else _Chain(chunks)


def _dropping_parts(name: str) -> Any:
    """``list``'s method ``name``, dropping an OrderList's parts first: they no longer say
    where each kind lies once the list is changed."""
    method = getattr(list, name)

    def changed(self: OrderList, *args: Any, **kwargs: Any) -> Any:
        self.parts = None
        return method(self, *args, **kwargs)

    changed.__name__ = changed.__qualname__ = name
    return changed


for _name in ("append", "extend", "insert", "remove", "pop", "clear", "sort", "reverse",
              "__setitem__", "__delitem__", "__iadd__", "__imul__"):
    setattr(OrderList, _name, _dropping_parts(_name))
del _name


class _Chain(Sequence[Order]):
    """Several lists of orders read as one (``orders_of_kind``): its length and items."""

    __slots__ = ("chunks", "n")

    def __init__(self, chunks: list[Sequence[Order]]):
        self.chunks = chunks
        self.n = sum(map(len, chunks))

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [o for c in self.chunks for o in c][i]
        if i < 0:
            i += self.n
        if not 0 <= i < self.n:
            raise IndexError(i)
        for c in self.chunks:
            if i < len(c):
                return c[i]
            i -= len(c)
        raise IndexError(i)  # pragma: no cover - the length counts every chunk


def subsets(items: Sequence[T], cap: int = 15) -> list[tuple[T, ...]]:
    """Sets of ``items`` to offer when the rules let a player pick any subset (a set with a cap).

    Every non-empty subset while there are at most ``cap`` of them; beyond, the whole set,
    the whole set less each one, and each one alone. Larger choices than the list offers
    stay open to the player through the game's ``accepts``.

    >>> subsets(["a", "b"])
    [('a',), ('b',), ('a', 'b')]
    >>> len(subsets(list("abcdef")))  # 63 subsets > 15: all, all but one (6), singles (6)
    13
    """
    items = list(items)
    n = len(items)
    if n == 0:
        return []
    if (1 << n) - 1 <= cap:
        return [tuple(x for i, x in enumerate(items) if mask >> i & 1) for mask in sorted(range(1, 1 << n), key=lambda m: (bin(m).count("1"), m))]
    out = [(x,) for x in items] + [tuple(y for y in items if y != x) for x in items] + [tuple(items)]
    return list(dict.fromkeys(out))
