"""The tree's node ids, made in columns: shapes, counts and look-ups on awkward names."""

from __future__ import annotations

import numpy as np

from tuibench.tui.view.node_index import NodeIndex
from tuibench.tui.view.state import Node

METRICS = [
    ("a/b/c", "x"),  # 0
    ("a/b", "z"),  # 1: a benchmark that is also a group of another
    ("", "e"),  # 2: an empty name is one empty part
    ("a//b", "q"),  # 3: an empty part inside
    ("d", "x"),  # 4
    ("a/b/c", "y"),  # 5
]


def test_children_sizes_and_counts_follow_the_names():
    index = NodeIndex(METRICS)
    order = np.array([4, 0, 5, 1, 2, 3])  # the shown order: d first
    shape = index.shape(order)
    assert shape.children(Node()) == [Node(("d",)), Node(("a",)), Node(("",))]
    assert shape.children(Node(("a",))) == [Node(("a", "b")), Node(("a", ""))]
    assert shape.children(Node(("a", "b"))) == [Node(("a", "b", "c")), Node(("a", "b"), "z")]
    assert shape.children(Node(("a", "b", "c"))) == [
        Node(("a", "b", "c"), "x"),
        Node(("a", "b", "c"), "y"),
    ]
    assert shape.size(Node()) == 6
    assert shape.size(Node(("a",))) == 4
    assert shape.size(Node(("a", "b"))) == 3
    assert shape.size(Node(("",), "e")) == 1
    assert shape.size(Node(("nowhere",))) == 0
    worse = np.array([True, False, True, False, False, True])
    better = np.array([False, True, False, False, True, False])
    counts = index.counts(worse, better)
    assert counts[Node()] == (3, 2)
    assert counts[Node(("a", "b"))] == (2, 1)
    assert counts[Node(("a", "b", "c"), "y")] == (1, 0)
    assert counts.get(Node(("zz",))) is None
    ids = np.arange(6)
    assert list(np.flatnonzero(index.below(Node(("a", "b")), ids))) == [0, 1, 5]
    assert list(np.flatnonzero(index.below(Node(("a", "")), ids))) == [3]


def test_every_metric_is_found_by_its_names_and_nothing_else():
    index = NodeIndex(METRICS)
    for i, key in enumerate(METRICS):
        assert index.metric_id.get(key) == i
    assert index.metric_id.get(("a/b/c", "z")) is None
    assert index.metric_id.get(("a/b/c/d", "x")) is None
    nodes = {index.nodes[i] for i in range(len(index.nodes))}
    # the root; a, a/b, a/b/c, "", a/, a//b, d; the six metrics
    assert len(nodes) == len(index.nodes) == 1 + 7 + 6
    assert all(index.ids[node] == i for i, node in enumerate(index.nodes))


def test_no_metric_makes_a_root_alone():
    index = NodeIndex([])
    assert index.shape(np.zeros(0, dtype=np.int64)).children(Node()) == []
    assert index.counts(np.zeros(0, bool), np.zeros(0, bool))[Node()] == (0, 0)


def test_counts_are_the_same_only_when_every_count_is():
    index = NodeIndex(METRICS)
    worse = np.array([True, False, True, False, False, True])
    better = np.array([False, True, False, False, True, False])
    counts = index.counts(worse, better)
    assert counts.same_as(index.counts(worse.copy(), better.copy()))
    flipped = better.copy()
    flipped[3] = True  # one metric more got better: its groups' counts change
    assert not counts.same_as(index.counts(worse, flipped))
    assert not counts.same_as(NodeIndex(METRICS).counts(worse, better))  # other nodes
    assert not counts.same_as({})
