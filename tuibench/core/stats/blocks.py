"""Block sizes that bound memory when many groups are processed at once."""

from __future__ import annotations

CHUNK = 1 << 22  # gathered elements per block: bounds memory on huge inputs
SORT_CHUNK = 1 << 20  # elements per block of rows sorted at once: small enough to reuse memory
