#!/usr/bin/env python3
"""Trains Nanashi's evaluation network on `nanashi datagen` positions and writes it, quantised,
as the file the engine embeds: AI/CNetwork/Resources/network-<hash>.nnue, the hash being the first
12 hex digits of the file's SHA-256, with network-<hash>.txt beside it saying how it was trained
(the command, with paths relative to the repository, the data and the parent network). To play
with it, AI/CNetwork/TrainedNetwork.c names it in place of the old one, whose two files go.

The network reads the board as tuples: every 2x2 window of the 7x7 board (36 windows), each in
one of 4^4 states (its four squares each empty, the perspective's own piece, the other side's
piece or a blocker), so 9,216 inputs per perspective of which exactly 36 are lit. Both
perspectives share one hidden layer; each side's half is squared after clipping to [0, 1]
(SCReLU), and one output reads the side to move's half then the other side's: with `--buckets N`,
one output of N, chosen by the number of pieces on the board (`bucket_of`). The output is in
units of the logistic scale K, fitted to the data: win chance = sigmoid(output), centi-pieces =
output * K. The target mixes the search's score and the game's result. Each position is seen
under a random one of the board's 8 symmetries.

Data: the 16-byte records of `nanashi datagen --format binary` (docs/ENGINE.md, "Making
training data"), or its text lines; several files may be given. Checkpoints are written after
every epoch (`--checkpoint`); `--resume` goes on from one; `--init` starts a new run from one's
network, or from a network's `.nnue` file (the committed one: a warm start without the
checkpoints).

    python3 tools/nnue/train.py data/gen1.bin --epochs 20
    python3 tools/nnue/train.py data/gen12.bin --init AI/CNetwork/Resources/network-<hash>.nnue --epochs 2 --lr 0.0003
"""

import argparse
import base64
import hashlib
import math
import os
import shlex
import struct
import sys
import time

import numpy as np
import torch

SQUARES = 49
WINDOWS = [(rank * 7 + file) for rank in range(6) for file in range(6)]
STATES = 256
INPUTS = len(WINDOWS) * STATES
QA = 255  # hidden activations: 1.0 is QA
QB = 64  # output weights: 1.0 is QB
WEIGHT_LIMIT = 127 / QB  # keeps every accumulator and product inside 16 bits
ROW_LIMIT = 127 / QA  # the window rows, which the engine keeps in 8 bits
MAGIC = b"NNUE"
VERSION = 2  # one output
BUCKETED_VERSION = 3  # outputs chosen by the number of pieces: the header says how many
NARROW_VERSION = 4  # version 3 with the window rows in 8 bits: what this trainer writes
# The repository, which the notes' paths are relative to, and where its networks are.
REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NETWORKS = os.path.join(REPOSITORY, "AI", "CNetwork", "Resources")

# Board codes, one byte per square, a1 = 0, b1 = 1, ..., g7 = 48.
EMPTY, X, O, BLOCKER = 0, 1, 2, 3
RECORD = np.dtype([("board", "u1", 13), ("score", "<i2"), ("result", "u1")])


def read_binary(path):
    """Board codes (N x 49), sides (0 x, 1 o), scores (side to move) and results (side to move)."""
    size = os.path.getsize(path)
    if size % RECORD.itemsize:
        sys.exit(f"{path}: {size} bytes is not a whole number of {RECORD.itemsize}-byte records")
    records = np.fromfile(path, dtype=RECORD)
    board = records["board"]
    bits = np.unpackbits(board, axis=1, bitorder="little")  # N x 104, bit i of the number
    codes = (bits[:, 0:98:2] | (bits[:, 1:98:2] << 1)).astype(np.uint8)
    sides = bits[:, 98].astype(np.uint8)
    if np.any(bits[:, 99:]) or np.any(records["result"] > 2):
        sys.exit(f"{path}: a record has unused bits set or a bad result")
    result_x = records["result"].astype(np.float32) / 2
    results = np.where(sides == 0, result_x, 1 - result_x).astype(np.float32)
    return codes, sides, records["score"].astype(np.float32), results


def read_text(path):
    """The same from the text lines: a FEN, the search's score and the result for x."""
    expand = {ord(str(n)): "." * n for n in range(1, 8)}
    expand[ord("/")] = ""
    boards, sides, scores, results = [], [], [], []
    result_for_x = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
    with open(path) as file:
        for number, line in enumerate(file, 1):
            fields = line.split()
            if len(fields) != 6:
                sys.exit(f"{path}:{number}: expected a FEN, a score and a result, got {line!r}")
            board = fields[0].translate(expand)
            if len(board) != SQUARES:
                sys.exit(f"{path}:{number}: bad board {fields[0]!r}")
            side = 0 if fields[1] == "x" else 1
            result = result_for_x[fields[5]]
            boards.append(board)
            sides.append(side)
            scores.append(int(fields[4]))
            results.append(result if side == 0 else 1 - result)
    raw = np.frombuffer("".join(boards).encode("ascii"), dtype=np.uint8).reshape(-1, 7, 7)
    codes = np.zeros(raw.shape, dtype=np.uint8)
    codes[raw == ord("x")] = X
    codes[raw == ord("o")] = O
    codes[raw == ord("-")] = BLOCKER
    # The FEN lists rank 7 first; square index is rank * 7 + file.
    codes = codes[:, ::-1, :].reshape(-1, SQUARES).copy()
    return codes, np.array(sides, np.uint8), np.array(scores, np.float32), np.array(results, np.float32)


def read(paths):
    """The positions of all the files, and how many each file gave."""
    parts = [read_text(path) if path.endswith(".txt") else read_binary(path) for path in paths]
    return tuple(np.concatenate([part[i] for part in parts]) for i in range(4)), [len(part[0]) for part in parts]


def symmetries():
    """The 8 symmetries of the square, as permutations of the 49 squares."""
    perms = []
    for transpose in (False, True):
        for flip_file in (False, True):
            for flip_rank in (False, True):
                perm = []
                for square in range(SQUARES):
                    rank, file = divmod(square, 7)
                    if transpose:
                        rank, file = file, rank
                    if flip_file:
                        file = 6 - file
                    if flip_rank:
                        rank = 6 - rank
                    perm.append(rank * 7 + file)
                perms.append(perm)
    return torch.tensor(perms, dtype=torch.long)


def fit_scale(scores, results):
    """The logistic scale K (centi-pieces) that best turns the search's scores into results."""

    def loss(k):
        return float(np.mean((results - 1 / (1 + np.exp(-scores / k))) ** 2))

    low, high = 10.0, 2000.0
    for _ in range(60):
        a = low + (high - low) * 0.382
        b = low + (high - low) * 0.618
        if loss(a) < loss(b):
            high = b
        else:
            low = a
    return (low + high) / 2


# The squares of each window, lower left first, then lower right, upper left, upper right; a
# window's state is the sum of its squares' codes times 1, 4, 16 and 64 in that order.
WINDOW_SQUARES = torch.tensor([[b, b + 1, b + 7, b + 8] for b in WINDOWS], dtype=torch.long)
DIGITS = torch.tensor([1, 4, 16, 64], dtype=torch.long)
OFFSETS = torch.arange(len(WINDOWS), dtype=torch.long) * STATES


SQUARE_OFFSETS = torch.arange(SQUARES, dtype=torch.long) * 4
# How many windows hold each square: a square's factor weight is shared out among them.
WINDOWS_OF_SQUARE = torch.bincount(WINDOW_SQUARES.flatten(), minlength=SQUARES).float()


def features(codes, sides):
    """The lit inputs of both perspectives (B x 36 each): the side to move's, then the other's;
    and the lit square factors (B x 49 each, square times 4 plus code)."""
    swap_sides = torch.tensor([EMPTY, O, X, BLOCKER], dtype=torch.long)
    # Relative codes: 1 for the side to move's pieces, 2 for the other side's.
    own = torch.where(sides[:, None] == 1, swap_sides[codes], codes)
    other = swap_sides[own]
    first = (own[:, WINDOW_SQUARES] * DIGITS).sum(dim=2) + OFFSETS
    second = (other[:, WINDOW_SQUARES] * DIGITS).sum(dim=2) + OFFSETS
    return first, second, own + SQUARE_OFFSETS, other + SQUARE_OFFSETS


def bucket_of(pieces, buckets):
    """The output a board with this many pieces (both sides', 0 to 49) is scored by: the range
    0...49 cut into `buckets` parts of near equal width (the engine's `NetworkWeights.bucket`)."""
    return pieces * buckets // 50


class Network(torch.nn.Module):
    """The tuple network, trained with a factor: one weight row per square and code, shared by
    every window state that has that code on that square, so that what is learnt of a square
    in one window state serves all the others (rare states learn from common ones). The factor
    is folded into the window rows when the network is written, so the engine never sees it."""

    def __init__(self, hidden, buckets=1):
        super().__init__()
        self.buckets = buckets
        self.inputs = torch.nn.EmbeddingBag(INPUTS, hidden, mode="sum")
        self.squares = torch.nn.EmbeddingBag(SQUARES * 4, hidden, mode="sum")
        self.bias = torch.nn.Parameter(torch.zeros(hidden))
        self.output = torch.nn.Linear(2 * hidden, buckets)
        with torch.no_grad():
            self.inputs.weight.uniform_(-0.02, 0.02)
            self.squares.weight.uniform_(-0.1, 0.1)

    def forward(self, own, other, own_squares, other_squares, bucket):
        a = torch.clamp(self.inputs(own) + self.squares(own_squares) + self.bias, 0, 1) ** 2
        b = torch.clamp(self.inputs(other) + self.squares(other_squares) + self.bias, 0, 1) ** 2
        outputs = self.output(torch.cat([a, b], dim=1))
        return torch.gather(outputs, 1, bucket[:, None]).squeeze(1)

    def folded_inputs(self):
        """The window rows with the square factor shared out among the windows of each square."""
        rows = self.inputs.weight.detach().clone()
        factor = self.squares.weight.detach().view(SQUARES, 4, -1) / WINDOWS_OF_SQUARE[:, None, None]
        states = torch.arange(STATES)
        for window, squares in enumerate(WINDOW_SQUARES.tolist()):
            for place, square in enumerate(squares):
                code = (states // (4**place)) % 4
                rows[window * STATES + states] += factor[square, code]
        return rows.clamp(-ROW_LIMIT, ROW_LIMIT)

    def clip(self):
        with torch.no_grad():
            self.inputs.weight.clamp_(-ROW_LIMIT, ROW_LIMIT)
            self.squares.weight.clamp_(-ROW_LIMIT / 2, ROW_LIMIT / 2)
            self.bias.clamp_(-WEIGHT_LIMIT, WEIGHT_LIMIT)
            self.output.weight.clamp_(-WEIGHT_LIMIT, WEIGHT_LIMIT)


def quantise(network, scale):
    """The integer weights and their header, as the engine reads them (little-endian)."""
    hidden = network.bias.shape[0]
    w1 = network.folded_inputs().numpy()  # INPUTS x hidden, one row per input
    b1 = network.bias.detach().numpy()
    w2 = network.output.weight.detach().numpy()  # buckets x 2 hidden
    b2 = network.output.bias.detach().numpy()
    q = lambda array, factor: np.clip(np.round(array * factor), -32767, 32767).astype("<i2")
    rows = np.clip(np.round(w1 * QA), -127, 127).astype("i1")
    header = MAGIC + struct.pack("<HHHHIHH", NARROW_VERSION, hidden, QA, QB, int(round(scale)), network.buckets, 0)
    body = rows.tobytes() + q(b1, QA).tobytes() + q(w2, QB).tobytes()
    biases = np.round(b2.astype(np.float64) * QA * QB).astype("<i4")
    return header + body + biases.tobytes()


def read_blob(path):
    """The quantised network of a `.nnue` file, or of the Swift source the trainer wrote before the
    networks were files of their own (`git show ec7d64c:AI/NanashiAI/NetworkWeights+Trained.swift`)."""
    with open(path, "rb") as file:
        data = file.read()
    if path.endswith(".swift"):
        text = data.decode("utf-8")
        start = text.index('"""') + 3
        body = text[start : text.index('"""', start)]
        data = base64.b64decode("".join(body.split()))
    return data


def dequantise(blob, network):
    """Loads a quantised network into `network` (the square factor left at zero: the window rows
    hold it folded) and returns its logistic scale K. Quantising the result gives `blob` back in
    version 4, its rows clipped to 8 bits.
    A network of one output loaded into one of several buckets gives each bucket that output (a
    warm start of buckets that begin by scoring as their parent did)."""
    if blob[:4] != MAGIC:
        sys.exit("not a network: the file does not start with NNUE")
    version, hidden, qa, qb, scale = struct.unpack_from("<HHHHI", blob, 4)
    offset, buckets = 16, 1
    if version in (BUCKETED_VERSION, NARROW_VERSION):
        (buckets,) = struct.unpack_from("<H", blob, offset)
        offset += 4
    if version not in (VERSION, BUCKETED_VERSION, NARROW_VERSION) or hidden != network.bias.shape[0] or (qa, qb) != (QA, QB):
        sys.exit(
            f"network version {version}, hidden {hidden}, QA {qa}, QB {qb}: this trainer reads {VERSION} to "
            f"{NARROW_VERSION}, QA {QA}, QB {QB}"
        )
    if buckets not in (1, network.buckets):
        sys.exit(f"a network of {buckets} output buckets cannot start one of {network.buckets}")
    arrays = []
    row_type = "i1" if version == NARROW_VERSION else "<i2"
    for count, dtype in ((INPUTS * hidden, row_type), (hidden, "<i2"), (buckets * 2 * hidden, "<i2")):
        arrays.append(np.frombuffer(blob, dtype=dtype, count=count, offset=offset).astype(np.float32))
        offset += np.dtype(dtype).itemsize * count
    b2 = np.frombuffer(blob, dtype="<i4", count=buckets, offset=offset).astype(np.float64)
    if offset + 4 * buckets != len(blob):
        sys.exit(f"network of {len(blob)} bytes: {offset + 4 * buckets} expected")
    copies = network.buckets // buckets
    with torch.no_grad():
        network.inputs.weight.copy_(torch.from_numpy(arrays[0].reshape(INPUTS, hidden) / QA))
        network.squares.weight.zero_()
        network.bias.copy_(torch.from_numpy(arrays[1] / QA))
        w2 = np.tile(arrays[2].reshape(buckets, 2 * hidden), (copies, 1))
        network.output.weight.copy_(torch.from_numpy(w2 / QB))
        network.output.bias.copy_(torch.from_numpy(np.tile(b2, copies) / (QA * QB)))
    return float(scale)


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def network_name(blob):
    """The name a network's file goes by: `network-` and the first 12 hex digits of its SHA-256."""
    return f"network-{sha256(blob)[:12]}.nnue"


def write_network(blob, notes, out):
    """Writes the network to `out`, a `.nnue` path or a directory to write it into under its
    name, and the notes beside it (the same path ending in `.txt`). Returns the network's path."""
    path = out if out.endswith(".nnue") else os.path.join(out, network_name(blob))
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    for target, data in ((path, blob), (path[: -len(".nnue")] + ".txt", notes.encode("utf-8"))):
        with open(target + ".tmp", "wb") as file:
            file.write(data)
        os.replace(target + ".tmp", target)
    return path


def portable(path):
    """`path` relative to the repository; a file outside it by its name alone (no machine's paths
    in what is committed)."""
    absolute = os.path.abspath(path)
    if os.path.commonpath([absolute, REPOSITORY]) == REPOSITORY:
        return os.path.relpath(absolute, REPOSITORY)
    return os.path.basename(absolute)


PATH_OPTIONS = ("--out", "--checkpoint", "--init")


def portable_command(arguments, data):
    """The command line of this run, as run from the repository's root: the trainer, the data and
    the paths of `PATH_OPTIONS` relative to it."""
    words = ["python3", "tools/nnue/train.py"]
    path_follows = False
    for word in arguments:
        option, equals, value = word.partition("=")
        if path_follows:
            words.append(portable(word))
            path_follows = False
        elif word in PATH_OPTIONS:
            words.append(word)
            path_follows = True
        elif equals and option in PATH_OPTIONS:
            words.append(f"{option}={portable(value)}")
        elif word in data:
            words.append(portable(word))
        else:
            words.append(word)
    return " ".join(shlex.quote(word) for word in words)


def file_sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for chunk in iter(lambda: file.read(1 << 24), b""):
            digest.update(chunk)
    return digest.hexdigest()


def training_notes(blob, command, parent, data, scale, fitted, losses):
    """What the `.txt` beside a network says: how to make it again."""
    name = network_name(blob)
    lines = [
        f"{name}: Nanashi's evaluation network, quantised (NetworkWeights' format), {len(blob):,} bytes,",
        f"sha256 {sha256(blob)}.",
        "",
        "Written by tools/nnue/train.py, run from the repository's root (paths relative to it):",
        "",
        f"    {command}",
        "",
        f"Parent: {parent}.",
        "Data:",
        *(f"    {path}: {positions:,} positions, {size:,} bytes, sha256 {digest}" for path, positions, size, digest in data),
        f"Logistic scale K = {scale:.1f} (fitted to the data: {fitted:.1f}).",
        f"Held-out loss: {', '.join(losses)}.",
    ]
    return "\n".join(lines) + "\n"


def main():
    # No abbreviated options: the notes name the paths of the command's options by their full names.
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False
    )
    parser.add_argument("data", nargs="*", help="positions written by `nanashi datagen` (.bin records or .txt lines)")
    parser.add_argument("--hidden", type=int, default=256, help="hidden layer size per side")
    parser.add_argument(
        "--buckets", type=int, default=1, help="outputs chosen by the number of pieces on the board (1 to 50)"
    )
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--batch", type=int, default=16384)
    parser.add_argument("--lr", type=float, default=0.001)
    parser.add_argument("--score-share", type=float, default=0.6, help="weight of the search's score in the target")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--out",
        default=NETWORKS,
        help="a directory to write network-<hash>.nnue and its notes (network-<hash>.txt) into, or the "
        "network's path, ending in .nnue (the notes beside it); default AI/CNetwork/Resources",
    )
    parser.add_argument("--checkpoint", default="data/train.ckpt", help="written after every epoch")
    parser.add_argument(
        "--init",
        help="start from this network (a new optimiser and schedule): a warm start on more data; a checkpoint, "
        "or a network's .nnue file (the committed network: AI/CNetwork/Resources/network-<hash>.nnue), or "
        "the Swift source the trainer wrote before (older commits' AI/NanashiAI/NetworkWeights+Trained.swift)",
    )
    parser.add_argument(
        "--check-init",
        action="store_true",
        help="with --init of a .nnue or .swift network: quantise it again, say whether the bytes are the same, "
        "and stop (only a version 4 file can be: the trainer writes no other)",
    )
    parser.add_argument(
        "--resume", action="store_true", help="go on from --checkpoint (to --epochs, which may differ from the first run's)"
    )
    args = parser.parse_args()
    if not args.data and not args.check_init:
        parser.error("no data: name the files of positions to train on")

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    generator = np.random.default_rng(args.seed)
    started = time.time()

    if not 1 <= args.buckets <= 50:
        parser.error("--buckets takes 1 to 50")
    network = Network(args.hidden, args.buckets)
    initial = None
    parent = f"none (random weights, --seed {args.seed})"
    if args.init and args.init.endswith((".swift", ".nnue")):
        blob = read_blob(args.init)
        initial = {"scale": dequantise(blob, network), "network": network.state_dict()}
        parent = f"{network_name(blob)[: -len('.nnue')]} (sha256 {sha256(blob)}; --init {portable(args.init)})"
        if args.check_init:
            same = quantise(network, initial["scale"]) == blob
            print(f"{args.init}: quantised again, {'the same' if same else 'DIFFERENT'} {len(blob)} bytes")
            sys.exit(0 if same else 1)
    elif args.init:
        initial = torch.load(args.init)
        network.load_state_dict(initial["network"])
        quantised = quantise(network, initial["scale"])
        parent = f"the checkpoint {portable(args.init)}, its network quantised {network_name(quantised)[: -len('.nnue')]}"
    (codes, sides, scores, results), counts = read(args.data)
    data = [
        (portable(path), count, os.path.getsize(path), file_sha256(path)) for path, count in zip(args.data, counts)
    ]
    fitted = fit_scale(scores, results)
    scale = fitted
    # A resumed run goes on in its checkpoint's K, and a warm start in its network's: the output
    # is in those units. (The target below is made with it, so it must be settled first.)
    resumed = torch.load(args.checkpoint) if args.resume else None
    if resumed:
        scale = resumed["scale"]
        parent = f"resumed from the checkpoint {portable(args.checkpoint)} after its epoch {resumed['epoch']}"
    elif initial:
        scale = initial["scale"]
    print(
        f"positions {len(codes)}, read in {time.time() - started:.0f} s; logistic scale K = {scale:.1f}"
        f" (fitted to these positions: {fitted:.1f})",
        flush=True,
    )
    target = args.score_share / (1 + np.exp(-scores / scale)) + (1 - args.score_share) * results

    # The held-out positions are the last ones read: datagen writes a game's positions together, so
    # they are whole games the training never saw, not neighbours of trained positions.
    held = max(1, min(len(codes) // 50, 200_000))
    valid, train = np.arange(len(codes) - held, len(codes)), np.arange(len(codes) - held)
    codes_t = torch.from_numpy(codes.astype(np.int64))
    sides_t = torch.from_numpy(sides.astype(np.int64))
    pieces = ((codes == X) | (codes == O)).sum(axis=1)
    buckets_t = torch.from_numpy(bucket_of(pieces, args.buckets).astype(np.int64))
    target_t = torch.from_numpy(target.astype(np.float32))
    perms = symmetries()

    optimiser = torch.optim.Adam(network.parameters(), lr=args.lr)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, T_max=args.epochs)
    first_epoch = 1
    if initial:
        network.load_state_dict(initial["network"])
        print(f"started from the network of {args.init} (K = {scale:.1f})", flush=True)
    if resumed:
        state = resumed
        network.load_state_dict(state["network"])
        optimiser.load_state_dict(state["optimiser"])
        schedule.load_state_dict(state["schedule"])
        # A different --epochs on resuming stretches or shortens the rest of the cosine schedule.
        # The scheduler steps from the current rate, so the rate is set to where the new schedule
        # stands (a run that ended at rate 0 would otherwise stay there, training nothing).
        schedule.T_max = args.epochs
        for group, base in zip(optimiser.param_groups, schedule.base_lrs):
            group["lr"] = base * (1 + math.cos(math.pi * state["epoch"] / args.epochs)) / 2
        first_epoch = state["epoch"] + 1
        generator = np.random.default_rng(args.seed + first_epoch)
        print(f"resumed after epoch {state['epoch']}", flush=True)

    def loss_on(indices, symmetry=None):
        index = torch.from_numpy(indices)
        board = codes_t[index]
        if symmetry is None:
            symmetry = torch.from_numpy(generator.integers(0, 8, len(indices)))
        board = torch.gather(board, 1, perms[symmetry])
        prediction = torch.sigmoid(network(*features(board, sides_t[index]), buckets_t[index]))
        return torch.mean((prediction - target_t[index]) ** 2)

    def held_out_loss():
        network.eval()
        with torch.no_grad():
            # Each position once, as it is (symmetry 0, the identity).
            chunks = [valid[s : s + args.batch] for s in range(0, len(valid), args.batch)]
            total = sum(loss_on(chunk, torch.zeros(len(chunk), dtype=torch.long)).item() * len(chunk) for chunk in chunks)
            return total / len(valid)

    losses = []
    if initial and not args.resume:
        # The same held-out positions as every epoch's: what the warm start gains is the difference.
        start_loss = held_out_loss()
        losses.append(f"{start_loss:.6f} (the parent)")
        print(f"epoch 0 (the starting network): held-out loss {start_loss:.6f}", flush=True)

    for epoch in range(first_epoch, args.epochs + 1):
        network.train()
        shuffled = generator.permutation(train)
        total, batches = 0.0, 0
        for start in range(0, len(shuffled), args.batch):
            loss = loss_on(shuffled[start : start + args.batch])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            network.clip()
            total += loss.item()
            batches += 1
        schedule.step()
        held_loss = held_out_loss()
        losses.append(f"{held_loss:.6f} (epoch {epoch})")
        print(
            f"epoch {epoch}: train loss {total / batches:.6f}, held-out loss {held_loss:.6f}, "
            f"{time.time() - started:.0f} s",
            flush=True,
        )
        if args.checkpoint:
            os.makedirs(os.path.dirname(args.checkpoint) or ".", exist_ok=True)
            torch.save(
                {
                    "network": network.state_dict(),
                    "optimiser": optimiser.state_dict(),
                    "schedule": schedule.state_dict(),
                    "epoch": epoch,
                    "scale": scale,
                },
                args.checkpoint + ".tmp",
            )
            os.replace(args.checkpoint + ".tmp", args.checkpoint)

    blob = quantise(network, scale)
    command = portable_command(sys.argv[1:], args.data)
    notes = training_notes(blob, command, parent, data, scale, fitted, losses)
    path = write_network(blob, notes, args.out)
    print(f"wrote {path} ({len(blob)} bytes) and its notes, {time.time() - started:.0f} s in all")
    print(f"to play with it: AI/CNetwork/TrainedNetwork.c names Resources/{os.path.basename(path)}", flush=True)


if __name__ == "__main__":
    main()
