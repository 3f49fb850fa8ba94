#!/usr/bin/env python3
# A row-block-distributed FP32 product over torch.distributed (NCCL), each rank's local product through cuBLAS, with and without libegemm_cublas.so.
"""C = A B with A and C split into row blocks, one per rank, and B on every
rank: each rank computes its block C_r = A_r B (torch.matmul, FP32, TF32 off:
cuBLAS, or EGEMM when the interposer is preloaded) and the blocks are
gathered on every rank (all_gather over NCCL). Timed end to end (local
product + gather) and checked against a float64 product on rank 0.

    python3 perf_tests/interposer/distributed_rowblock.py --interposer /path/to/libegemm_cublas.so --nproc 2

launches torchrun twice (without, then with LD_PRELOAD) and prints a table.
"""
import argparse
import json
import os
import subprocess
import sys
import time


def worker(n, reps):
    import torch
    import torch.distributed as dist

    dist.init_process_group("nccl")
    rank, world = dist.get_rank(), dist.get_world_size()
    local = int(os.environ.get("LOCAL_RANK", rank))
    torch.cuda.set_device(local)
    torch.backends.cuda.matmul.allow_tf32 = False
    assert n % world == 0, "n must divide evenly into row blocks"
    rows = n // world
    # The same A and B on every rank (same seed): no set-up traffic, and rank 0 can form the reference.
    g = torch.Generator(device="cuda").manual_seed(0)
    a = torch.rand((n, n), device="cuda", generator=g) * 2 - 1
    b = torch.rand((n, n), device="cuda", generator=g) * 2 - 1
    a_block = a[rank * rows:(rank + 1) * rows].contiguous()
    c_blocks = [torch.empty((rows, n), device="cuda") for _ in range(world)]

    def step():
        c_local = torch.matmul(a_block, b)
        dist.all_gather(c_blocks, c_local)

    step()
    torch.cuda.synchronize()
    dist.barrier()
    times, local_times = [], []
    for _ in range(reps):
        dist.barrier()
        torch.cuda.synchronize()
        t = time.perf_counter()
        step()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - t) * 1e3)
    for _ in range(reps):
        torch.cuda.synchronize()
        t = time.perf_counter()
        torch.matmul(a_block, b)
        torch.cuda.synchronize()
        local_times.append((time.perf_counter() - t) * 1e3)
    step()
    torch.cuda.synchronize()
    result = {"world": world, "n": n}
    end_to_end = torch.tensor([sorted(times)[reps // 2]], device="cuda")
    dist.all_reduce(end_to_end, op=dist.ReduceOp.MAX)  # the slowest rank's median
    result["end_to_end_ms"] = end_to_end.item()
    result["local_matmul_ms"] = sorted(local_times)[reps // 2]
    if rank == 0:
        c = torch.cat(c_blocks)
        ref = a.double() @ b.double()
        result["error"] = ((c.double() - ref).norm() / ref.norm()).item()
        import ctypes

        try:
            f = ctypes.CDLL(None).egemm_cublas_taken_calls
            f.restype = ctypes.c_ulonglong
            result["egemm_calls_rank0"] = int(f())
        except AttributeError:
            result["egemm_calls_rank0"] = 0
        print("RESULT " + json.dumps(result), flush=True)
    dist.destroy_process_group()


def launch(args, preload):
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    if preload:
        env["LD_PRELOAD"] = preload
    # The ranks' settings travel in the environment: torchrun's own parser would take --n for one of its options.
    env.update(EGEMM_ROWBLOCK_WORKER="1", EGEMM_ROWBLOCK_N=str(args.n), EGEMM_ROWBLOCK_REPS=str(args.reps))
    cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", f"--nproc_per_node={args.nproc}",
           os.path.abspath(__file__)]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=args.timeout)
    for line in p.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    sys.exit(f"torchrun failed ({'with' if preload else 'without'} the interposer):\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--interposer", help="path of libegemm_cublas.so")
    ap.add_argument("--nproc", type=int, default=2, help="ranks (GPUs) on this machine")
    ap.add_argument("--n", type=int, default=16384)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--timeout", type=int, default=600)
    if os.environ.get("EGEMM_ROWBLOCK_WORKER") == "1":  # a rank, started by torchrun
        return worker(int(os.environ["EGEMM_ROWBLOCK_N"]), int(os.environ["EGEMM_ROWBLOCK_REPS"]))
    args = ap.parse_args()
    if not args.interposer or not os.path.exists(args.interposer):
        ap.error("--interposer: the path of libegemm_cublas.so")
    preload = os.path.abspath(args.interposer)
    base, interposed = launch(args, None), launch(args, preload)
    print(f"\nrow-block FP32 product C = A B, n = {args.n}, {base['world']} ranks (NCCL all_gather of C's blocks); "
          f"median of {args.reps}")
    print(f"{'':12s} {'end to end ms':>14s} {'local matmul ms':>16s} {'error vs float64':>17s} {'EGEMM calls (rank 0)':>21s}")
    for label, r in (("cuBLAS", base), ("interposer", interposed)):
        print(f"{label:12s} {r['end_to_end_ms']:14.3f} {r['local_matmul_ms']:16.3f} {r['error']:17.3e} "
              f"{r.get('egemm_calls_rank0', 0):21d}")
    print(f"end-to-end speed-up: {base['end_to_end_ms'] / interposed['end_to_end_ms']:.2f}x")


if __name__ == "__main__":
    main()
