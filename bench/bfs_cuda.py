"""Row 7 (c) and (d): a level-synchronous BFS in PyTorch on the same GPU and
graph as bench/bfs_js_test.go's TestBFSRow, and the memory ceiling.

    python3 bench/bfs_cuda.py GRAPH   # GRAPH: TestBFSRow's -bfs-graph file

The file is n, m, root, the n + 1 offsets, the m neighbours and Go's n
distances (little-endian u32). Each level expands the frontier's edges at
once (edge-parallel: repeat_interleave of the frontier's edge ranges),
keeps the unreached neighbours, dedups them (unique) and sets their
distance; the host reads the next frontier's size (a sync per level, as
the WebGPU baseline does). GTEPS = edges of the reached vertices / time.
The ceiling (d): the bytes a BFS must touch, 4 B per edge of a reached
vertex (its neighbour) + 4 B per such edge (the neighbour's distance read)
+ 8 B per reached vertex (its two offsets) + 4 B per reached vertex (its
distance written), over the HBM rate a device-to-device copy of 2 GiB
measures. Prints one JSON line (BENCHROW-like).
"""
import json
import sys
import time

import numpy as np
import torch


def main(path):
    raw = np.fromfile(path, dtype="<u4")
    n, m, root = int(raw[0]), int(raw[1]), int(raw[2])
    offs = raw[3 : 3 + n + 1].astype(np.int64)
    nbrs = raw[4 + n : 4 + n + m].astype(np.int64)
    want = raw[4 + n + m : 4 + n + m + n].astype(np.int64)
    dev = torch.device("cuda")
    d_offs, d_nbrs = torch.from_numpy(offs).to(dev), torch.from_numpy(nbrs).to(dev)
    unreached = np.int64(0xFFFFFFFF)
    reached = want != unreached
    deg = offs[1:] - offs[:-1]
    traversed = int(deg[reached].sum())
    nreached = int(reached.sum())

    def bfs():
        dist = torch.full((n,), -1, dtype=torch.int64, device=dev)
        dist[root] = 0
        frontier = torch.tensor([root], dtype=torch.int64, device=dev)
        level = 0
        while frontier.numel() > 0:
            starts = d_offs[frontier]
            degs = d_offs[frontier + 1] - starts
            total = int(degs.sum())  # the host reads the level's size
            if total == 0:
                break
            first = torch.repeat_interleave(starts - (torch.cumsum(degs, 0) - degs), degs, output_size=total)
            nb = d_nbrs[first + torch.arange(total, device=dev)]
            nb = nb[dist[nb] < 0]
            nb = torch.unique(nb)
            dist[nb] = level + 1
            frontier = nb
            level += 1
        return dist

    got = bfs()  # warm: allocator, kernels
    torch.cuda.synchronize()
    g = got.cpu().numpy()
    g[g < 0] = unreached
    ok = bool((g == want).all())
    times = []
    for _ in range(7):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        bfs()
        torch.cuda.synchronize()
        times.append(time.perf_counter() - t0)
    times.sort()
    med = times[len(times) // 2]

    x = torch.empty(1 << 29, dtype=torch.float32, device=dev)  # 2 GiB
    y = torch.empty_like(x)
    for _ in range(3):
        y.copy_(x)
    torch.cuda.synchronize()
    rates = []
    for _ in range(10):
        t0 = time.perf_counter()
        y.copy_(x)
        torch.cuda.synchronize()
        rates.append(2 * x.numel() * 4 / (time.perf_counter() - t0))
    rates.sort()
    rate = rates[len(rates) // 2]
    must = 8 * traversed + 12 * nreached
    print(json.dumps({
        "row": "bfs-cuda", "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
        "vertices": n, "edges": m, "root": root, "reached": nreached, "traversed": traversed,
        "distancesEqualGo": ok, "seconds": times, "GTEPS": traversed / med / 1e9,
        "hbmBytesPerSecond": rate, "bytesMustTouch": must, "ceilingGTEPS": traversed / (must / rate) / 1e9,
    }))


if __name__ == "__main__":
    main(sys.argv[1])
