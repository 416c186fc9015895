"""The type model of the fuzz generator (generate.py): LLVM-dialect types,
their sizes, alignments and field offsets as the NVPTX data layout gives
them, their leaves, and a seeded maker of random types.
"""

from dataclasses import dataclass

# ----------------------------------------------------------------------------
# Types


@dataclass(frozen=True)
class Ty:
    """An LLVM-dialect type: kind is int, float, ptr, vec, array, struct."""

    kind: str
    bits: int = 0  # int/float width; pointer address space
    elements: tuple = ()  # struct fields / array or vector element
    count: int = 0  # array or vector length
    packed: bool = False
    name: str = ""  # float: f16, bf16, f32, f64

    def mlir(self, top=True):
        prefix = "!llvm." if top else ""
        if self.kind == "int":
            return f"i{self.bits}"
        if self.kind == "float":
            return self.name
        if self.kind == "ptr":
            text = "ptr" if self.bits == 0 else f"ptr<{self.bits}>"
            return ("!llvm." if top else "") + text
        if self.kind == "vec":
            return f"vector<{self.count}x{self.elements[0].mlir()}>"
        if self.kind == "array":
            return f"{prefix}array<{self.count} x {self.elements[0].mlir(False)}>"
        inner = ", ".join(e.mlir(False) for e in self.elements)
        return f"{prefix}struct<{'packed ' if self.packed else ''}({inner})>"


I1, I8, I16, I32, I64 = (Ty("int", b) for b in (1, 8, 16, 32, 64))
PTR = Ty("ptr", 0)


def scalar_size(ty):
    if ty.kind == "int":
        return 1 if ty.bits <= 8 else 2 if ty.bits <= 16 else 4 if ty.bits <= 32 else 8 if ty.bits <= 64 else 16
    if ty.kind == "float":
        return {"f16": 2, "bf16": 2, "f32": 4, "f64": 8}[ty.name]
    return 8


def align_of(ty):
    """ABI alignment under NVPTX's layout."""
    if ty.kind in ("int", "float", "ptr"):
        return scalar_size(ty) if ty.kind != "int" or ty.bits != 1 else 1
    if ty.kind == "vec":
        size = size_of(ty)
        p = 1
        while p < size:
            p *= 2
        return p
    if ty.kind == "array":
        return align_of(ty.elements[0])
    if ty.packed or not ty.elements:
        return 1
    return max(align_of(e) for e in ty.elements)


def size_of(ty):
    """Allocation size under NVPTX's layout."""
    if ty.kind in ("int", "float", "ptr"):
        return scalar_size(ty)
    if ty.kind == "vec":
        element = ty.elements[0]
        bits = element.bits if element.kind == "int" else scalar_size(element) * 8
        store = (bits * ty.count + 7) // 8
        align = 1
        while align < store:
            align *= 2
        return (store + align - 1) // align * align
    if ty.kind == "array":
        return size_of(ty.elements[0]) * ty.count
    offset = 0
    for e in ty.elements:
        if not ty.packed:
            offset = (offset + align_of(e) - 1) // align_of(e) * align_of(e)
        offset += size_of(e)
    a = align_of(ty)
    return (offset + a - 1) // a * a


def field_offsets(ty):
    """Byte offsets of a struct's fields under NVPTX's layout."""
    offsets, offset = [], 0
    for e in ty.elements:
        if not ty.packed:
            offset = (offset + align_of(e) - 1) // align_of(e) * align_of(e)
        offsets.append(offset)
        offset += size_of(e)
    return offsets


def path_offset(ty, path):
    """Byte offset of the GEP path (after the leading 0) inside `ty`."""
    offset = 0
    for index in path:
        if ty.kind == "struct":
            offset += field_offsets(ty)[index]
            ty = ty.elements[index]
        else:
            offset += index * size_of(ty.elements[0])
            ty = ty.elements[0]
    return offset


def known_align(offset, *limits):
    """The alignment an access at `offset` from a base aligned to every
    power of two in `limits` can claim (at most the smallest limit)."""
    align = min(limits)
    while offset % align:
        align //= 2
    return max(align, 1)


@dataclass
class Leaf:
    path: tuple  # GEP indices after the leading 0 (struct/array positions)
    ty: Ty


def leaves(ty, path=(), out=None, limit=24):
    """Scalar and vector leaves of an aggregate, with their GEP paths
    (arrays: the first and last element)."""
    out = [] if out is None else out
    if len(out) >= limit:
        return out
    if ty.kind == "struct":
        for i, e in enumerate(ty.elements):
            leaves(e, path + (i,), out, limit)
    elif ty.kind == "array":
        for i in sorted({0, ty.count - 1}):
            leaves(ty.elements[0], path + (i,), out, limit)
    else:
        out.append(Leaf(path, ty))
    return out


def arrays(ty, path=()):
    """(path, array type) of every array inside an aggregate."""
    found = []
    if ty.kind == "struct":
        for i, e in enumerate(ty.elements):
            found += arrays(e, path + (i,))
    elif ty.kind == "array":
        found.append((path, ty))
        found += arrays(ty.elements[0], path + (0,))
    return found


class TypeMaker:
    def __init__(self, rng):
        self.rng = rng

    def scalar(self):
        r = self.rng.random()
        if r < 0.45:
            return Ty("int", self.rng.choice([1, 8, 16, 32, 32, 64, 64, 128]))
        if r < 0.8:
            return Ty("float", name=self.rng.choice(["f16", "bf16", "f32", "f32", "f64"]))
        if r < 0.9:
            element = self.rng.choice([I1, I8, Ty("float", name="f16"), Ty("float", name="bf16"), Ty("float", name="f32")])
            count = self.rng.choice([2, 4]) if element != I1 else self.rng.choice([4, 8])
            return Ty("vec", elements=(element,), count=count)
        return Ty("ptr", self.rng.choice([0, 0, 1, 3, 5]))

    def aggregate(self, depth=0):
        r = self.rng.random()
        if depth < 2 and r < 0.25:
            return Ty("array", elements=(self.field(depth + 1),), count=self.rng.choice([1, 2, 3, 4, 8]))
        count = self.rng.randint(0 if depth else 1, 5)
        if depth and self.rng.random() < 0.05:
            count = 0
        fields = tuple(self.field(depth + 1) for _ in range(count))
        return Ty("struct", elements=fields, packed=self.rng.random() < 0.12)

    def field(self, depth):
        if depth < 3 and self.rng.random() < 0.3:
            return self.aggregate(depth)
        return self.scalar()

    def struct(self):
        """A top-level byval type with at least one leaf."""
        while True:
            ty = self.aggregate()
            if ty.kind == "array":
                ty = Ty("struct", elements=(ty, self.scalar()))
            if leaves(ty) and size_of(ty) <= 512:
                return ty
