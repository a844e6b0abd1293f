#!/usr/bin/env python3
"""Trains Nanashi's evaluation network on `nanashi datagen` positions and writes it, quantised,
as the Swift source the engine embeds (AI/NanashiAI/NetworkWeights+Trained.swift).

The network: for each side, 147 inputs (its pieces, the other side's pieces and the empty
squares, 49 each; blockers light none), one shared hidden layer clipped to [0, 1], and one output
reading the side to move's hidden layer then the other side's. The output is in units of the
logistic scale K, fitted to the data: win chance = sigmoid(output), centi-pieces = output * K.
The target mixes the search's score and the game's result. Each position is seen under a random
one of the board's 8 symmetries.

    python3 tools/nnue/train.py data/positions.txt --epochs 30
"""

import argparse
import base64
import math
import os
import struct
import sys
import time

import numpy as np
import torch

SQUARES = 49
INPUTS = 3 * SQUARES
QA = 255  # hidden activations: 1.0 is QA
QB = 64  # output weights: 1.0 is QB
WEIGHT_LIMIT = 127 / QB  # keeps every product and accumulator inside 16 bits
MAGIC = b"NNUE"
VERSION = 1

# Board codes, one byte per square, a1 = 0, b1 = 1, ..., g7 = 48.
EMPTY, X, O, BLOCKER = 0, 1, 2, 3


def parse(path):
    """Reads the data file into board codes (N x 49), the side to move (0 for x, 1 for o),
    the search's scores (side to move, centi-pieces) and the results (side to move: 1, 0.5, 0)."""
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
    return (
        codes,
        np.array(sides, dtype=np.uint8),
        np.array(scores, dtype=np.float32),
        np.array(results, dtype=np.float32),
    )


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


class Network(torch.nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.hidden = torch.nn.Linear(INPUTS, hidden)
        self.output = torch.nn.Linear(2 * hidden, 1)

    def forward(self, own, other):
        a = torch.clamp(self.hidden(own), 0, 1)
        b = torch.clamp(self.hidden(other), 0, 1)
        return self.output(torch.cat([a, b], dim=1)).squeeze(1)

    def clip(self):
        with torch.no_grad():
            self.hidden.weight.clamp_(-WEIGHT_LIMIT, WEIGHT_LIMIT)
            self.hidden.bias.clamp_(-WEIGHT_LIMIT, WEIGHT_LIMIT)
            self.output.weight.clamp_(-WEIGHT_LIMIT, WEIGHT_LIMIT)


def inputs(codes, sides):
    """The two perspectives' inputs: the side to move's, then the other side's."""
    # Relative codes: 1 for the side to move's pieces, 2 for the other side's.
    swap = torch.tensor([EMPTY, O, X, BLOCKER], dtype=torch.long)
    relative = torch.where(sides[:, None] == 1, swap[codes], codes)
    own = relative == X
    other = relative == O
    empty = relative == EMPTY
    first = torch.cat([own, other, empty], dim=1).float()
    second = torch.cat([other, own, empty], dim=1).float()
    return first, second


def quantise(network, scale):
    """The integer weights and their header, as the engine reads them (little-endian)."""
    hidden = network.hidden.weight.shape[0]
    w1 = network.hidden.weight.detach().numpy().T  # INPUTS x hidden, one row per input
    b1 = network.hidden.bias.detach().numpy()
    w2 = network.output.weight.detach().numpy()[0]
    b2 = float(network.output.bias.detach().numpy()[0])
    q = lambda array, factor: np.clip(np.round(array * factor), -32767, 32767).astype("<i2")
    header = MAGIC + struct.pack("<HHHHI", VERSION, hidden, QA, QB, int(round(scale)))
    body = (
        q(w1, QA).tobytes()
        + q(b1, QA).tobytes()
        + q(w2, QB).tobytes()
        + struct.pack("<i", int(round(b2 * QA * QB)))
    )
    return header + body


def swift_source(blob, command):
    text = base64.b64encode(blob).decode("ascii")
    lines = [text[i : i + 96] for i in range(0, len(text), 96)]
    body = "\n".join(f"        {line}" for line in lines)
    return (
        f"// Written by `{command}`; do not edit.\n"
        "// The quantised network (NetworkWeights' format), base64-encoded.\n\n"
        "extension NetworkWeights {\n"
        "    static let trainedBase64 = \"\"\"\n"
        f"{body}\n"
        "        \"\"\"\n"
        "}\n"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", help="positions written by `nanashi datagen`")
    parser.add_argument("--hidden", type=int, default=128, help="hidden layer size per side")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--batch", type=int, default=16384)
    parser.add_argument("--lr", type=float, default=0.002)
    parser.add_argument("--score-share", type=float, default=0.6, help="weight of the search's score in the target")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", default="AI/NanashiAI/NetworkWeights+Trained.swift")
    parser.add_argument("--binary", help="also write the quantised network to this file")
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    generator = np.random.default_rng(args.seed)
    started = time.time()

    codes, sides, scores, results = parse(args.data)
    scale = fit_scale(scores, results)
    print(f"positions {len(codes)}, read in {time.time() - started:.0f} s; logistic scale K = {scale:.1f}")
    target = args.score_share / (1 + np.exp(-scores / scale)) + (1 - args.score_share) * results

    order = generator.permutation(len(codes))
    held = max(1, len(codes) // 50)
    valid, train = order[:held], order[held:]
    codes_t = torch.from_numpy(codes.astype(np.int64))
    sides_t = torch.from_numpy(sides.astype(np.int64))
    target_t = torch.from_numpy(target.astype(np.float32))
    perms = symmetries()

    network = Network(args.hidden)
    optimiser = torch.optim.Adam(network.parameters(), lr=args.lr)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, T_max=args.epochs)

    def loss_on(indices, symmetry=None):
        index = torch.from_numpy(indices)
        board = codes_t[index]
        if symmetry is None:
            symmetry = torch.from_numpy(generator.integers(0, 8, len(indices)))
        board = torch.gather(board, 1, perms[symmetry])
        own, other = inputs(board, sides_t[index])
        prediction = torch.sigmoid(network(own, other))
        return torch.mean((prediction - target_t[index]) ** 2)

    for epoch in range(1, args.epochs + 1):
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
        network.eval()
        with torch.no_grad():
            held_loss = sum(
                loss_on(valid[s : s + args.batch], torch.zeros(len(valid[s : s + args.batch]), dtype=torch.long)).item()
                * len(valid[s : s + args.batch])
                for s in range(0, len(valid), args.batch)
            ) / len(valid)
        print(
            f"epoch {epoch}: train loss {total / batches:.6f}, held-out loss {held_loss:.6f}, "
            f"{time.time() - started:.0f} s",
            flush=True,
        )

    blob = quantise(network, scale)
    command = "python3 tools/nnue/train.py " + " ".join(sys.argv[1:])
    with open(args.out, "w") as file:
        file.write(swift_source(blob, command))
    if args.binary:
        with open(args.binary, "wb") as file:
            file.write(blob)
    print(f"wrote {args.out} ({len(blob)} bytes of weights), {time.time() - started:.0f} s in all")


if __name__ == "__main__":
    main()
