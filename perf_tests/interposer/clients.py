#!/usr/bin/env python3
# PyTorch, CuPy and JAX FP32 matmuls with and without libegemm_cublas.so preloaded: error against float64 and speed, one table.
"""Runs each client's FP32 product in its own process (LD_PRELOAD is per
process), once without and once with the interposer, and prints one table:
error against a float64 product of the same operands (normwise, relative)
and the median time, at N^3 (default 8192), for PyTorch also replayed from a
CUDA graph on fresh operands, and on a batch (default 64 x 1024^3).

    python3 perf_tests/interposer/clients.py --interposer /path/to/libegemm_cublas.so
    python3 perf_tests/interposer/clients.py --interposer ... --entry-points   # which cuBLAS calls each client makes

PyTorch runs with TF32 off (torch.backends.cuda.matmul.allow_tf32 = False),
JAX with precision=HIGHEST and XLA_FLAGS=--xla_gpu_enable_triton_gemm=false
(XLA's Triton gemm emitter would otherwise take F32 dots away from cuBLAS).
"""
import argparse
import json
import os
import subprocess
import sys

XLA_FLAGS = "--xla_gpu_enable_triton_gemm=false"


def worker(client, n, batch, bn, reps):
    """Runs in the measured process: prints one JSON line."""
    out = {"client": client}
    if client == "torch":
        import torch

        torch.backends.cuda.matmul.allow_tf32 = False
        torch.manual_seed(0)

        def make(shape):
            return torch.rand(shape, device="cuda", dtype=torch.float32) * 2 - 1

        def timed(f):
            f()
            torch.cuda.synchronize()
            times = []
            for _ in range(reps):
                s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                s.record()
                f()
                e.record()
                e.synchronize()
                times.append(s.elapsed_time(e))
            return sorted(times)[len(times) // 2]

        def error(c, a, b, mul):
            ref = mul(a.double(), b.double())
            return ((c.double() - ref).norm() / ref.norm()).item()

        a, b = make((n, n)), make((n, n))
        out["matmul_ms"] = timed(lambda: torch.matmul(a, b))
        out["mm_ms"] = timed(lambda: torch.mm(a, b))
        out["matmul_error"] = error(torch.matmul(a, b), a, b, torch.matmul)
        # The same product captured in a CUDA graph (PyTorch warms it up on a side stream first), then
        # replayed on fresh operands copied into the captured ones: the replay must compute them.
        graph = torch.cuda.CUDAGraph()
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            torch.matmul(a, b)
        torch.cuda.current_stream().wait_stream(s)
        with torch.cuda.graph(graph):
            c = torch.matmul(a, b)
        a.copy_(make((n, n)))
        b.copy_(make((n, n)))
        out["graph_ms"] = timed(graph.replay)
        out["graph_error"] = error(c, a, b, torch.matmul)
        del a, b, c, graph
        a, b = make((batch, bn, bn)), make((batch, bn, bn))
        out["batched_ms"] = timed(lambda: torch.bmm(a, b))
        out["batched_error"] = error(torch.bmm(a, b), a, b, torch.bmm)
    elif client == "cupy":
        import cupy as cp

        rng = cp.random.default_rng(0)

        def make(shape):
            return rng.random(shape, dtype=cp.float32) * 2 - 1

        def timed(f):
            f()
            cp.cuda.Device().synchronize()
            times = []
            for _ in range(reps):
                s, e = cp.cuda.Event(), cp.cuda.Event()
                s.record()
                f()
                e.record()
                e.synchronize()
                times.append(cp.cuda.get_elapsed_time(s, e))
            return sorted(times)[len(times) // 2]

        def error(c, a, b):
            ref = cp.matmul(a.astype(cp.float64), b.astype(cp.float64))
            return float(cp.linalg.norm((c.astype(cp.float64) - ref).ravel()) / cp.linalg.norm(ref.ravel()))

        a, b = make((n, n)), make((n, n))
        out["matmul_ms"] = timed(lambda: cp.matmul(a, b))
        out["matmul_error"] = error(cp.matmul(a, b), a, b)
        del a, b
        a, b = make((batch, bn, bn)), make((batch, bn, bn))
        out["batched_ms"] = timed(lambda: cp.matmul(a, b))
        out["batched_error"] = error(cp.matmul(a, b), a, b)
    elif client == "jax":
        import time

        import jax

        jax.config.update("jax_enable_x64", True)  # for the float64 reference; float32 arrays stay float32
        import jax.numpy as jnp

        key = jax.random.PRNGKey(0)

        def make(shape):
            nonlocal key
            key, sub = jax.random.split(key)
            return jax.random.uniform(sub, shape, jnp.float32, -1.0, 1.0)

        mul = jax.jit(lambda a, b: jnp.matmul(a, b, precision=jax.lax.Precision.HIGHEST))

        def timed(f):
            f().block_until_ready()
            times = []
            for _ in range(reps):
                t = time.perf_counter()
                f().block_until_ready()
                times.append((time.perf_counter() - t) * 1e3)
            return sorted(times)[len(times) // 2]

        def error(c, a, b):
            ref = jnp.matmul(a.astype(jnp.float64), b.astype(jnp.float64), precision=jax.lax.Precision.HIGHEST)
            return float(jnp.linalg.norm((c.astype(jnp.float64) - ref).ravel()) / jnp.linalg.norm(ref.ravel()))

        a, b = make((n, n)), make((n, n))
        out["matmul_ms"] = timed(lambda: mul(a, b))
        out["matmul_error"] = error(mul(a, b), a, b)
        del a, b
        a, b = make((batch, bn, bn)), make((batch, bn, bn))
        out["batched_ms"] = timed(lambda: mul(a, b))
        out["batched_error"] = error(mul(a, b), a, b)
    taken = None
    if os.environ.get("LD_PRELOAD"):
        import ctypes

        try:
            taken = ctypes.CDLL(None).egemm_cublas_taken_calls
            taken.restype = ctypes.c_ulonglong
            out["egemm_calls"] = int(taken())
        except AttributeError:
            out["egemm_calls"] = None
    print("RESULT " + json.dumps(out), flush=True)


def run_worker(client, preload, args, extra_env=None):
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    if preload:
        env["LD_PRELOAD"] = preload
    if client == "jax":
        env["XLA_FLAGS"] = (env.get("XLA_FLAGS", "") + " " + XLA_FLAGS).strip()
        env.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    env.update(extra_env or {})
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", client, "--n", str(args.n), "--batch", str(args.batch),
           "--batch-n", str(args.batch_n), "--reps", str(args.reps)]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=args.timeout)
    for line in p.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:]), p.stderr
    return {"client": client, "failed": (p.stderr or p.stdout)[-2000:]}, p.stderr


def entry_points(args):
    """EGEMM_LOG=debug: the interposer names each cuBLAS call and what it did with it."""
    for client in args.clients:
        try:
            _, err = run_worker(client, args.interposer, args, {"EGEMM_LOG": "debug"})
        except subprocess.TimeoutExpired as e:
            print(f"== {client}: ran past --timeout {args.timeout} s")
            err = e.stderr.decode() if isinstance(e.stderr, bytes) else (e.stderr or "")
        lines = {}
        for line in err.splitlines():
            if line.startswith("egemm: cublas: "):
                key = line[len("egemm: cublas: "):]
                lines[key] = lines.get(key, 0) + 1
        print(f"== {client}: {len(lines)} distinct interposer log lines")
        for key, count in sorted(lines.items()):
            print(f"  {count:5d} x {key}", flush=True)


def table(args):
    """Each client's row as soon as its two processes ran."""
    print(f"\nFP32 products, {args.n}^3 and batched {args.batch} x {args.batch_n}^3; error: ||C - C_float64||_F / "
          f"||C_float64||_F; time: median of {args.reps}")
    header = f"{'client / call':26s} {'cuBLAS ms':>10s} {'EGEMM ms':>10s} {'speed-up':>9s} {'cuBLAS error':>13s} {'EGEMM error':>12s}"
    print(header)
    print("-" * len(header), flush=True)
    calls = {"torch": [("torch.matmul", "matmul"), ("torch.mm", "mm"), ("torch.matmul CUDA graph", "graph"),
                       ("torch.bmm", "batched")],
             "cupy": [("cupy.matmul", "matmul"), ("cupy.matmul batched", "batched")],
             "jax": [("jnp.matmul HIGHEST", "matmul"), ("jnp.matmul batched", "batched")]}
    for client in args.clients:
        try:
            base, _ = run_worker(client, None, args)
            interposed, _ = run_worker(client, args.interposer, args)
        except subprocess.TimeoutExpired:
            print(f"{client}: a process ran past --timeout {args.timeout} s", flush=True)
            continue
        if "failed" in base or "failed" in interposed:
            print(f"{client}: failed\n{base.get('failed', '')}\n{interposed.get('failed', '')}")
            continue
        for label, key in calls[client]:
            t0, t1 = base[key + "_ms"], interposed[key + "_ms"]
            err_key = (key if key != "mm" else "matmul") + "_error"
            e0, e1 = base[err_key], interposed[err_key]
            print(f"{label:26s} {t0:10.3f} {t1:10.3f} {t0 / t1:8.2f}x {e0:13.3e} {e1:12.3e}", flush=True)
        print(f"{'':26s} (EGEMM ran {interposed.get('egemm_calls')} gemms in the interposed process)", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--interposer", help="path of libegemm_cublas.so")
    ap.add_argument("--clients", nargs="+", default=["torch", "cupy", "jax"])
    ap.add_argument("--n", type=int, default=8192)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--batch-n", type=int, default=1024)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--timeout", type=int, default=120, help="seconds each process may run")
    ap.add_argument("--entry-points", action="store_true")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker(args.worker, args.n, args.batch, args.batch_n, args.reps)
    if not args.interposer or not os.path.exists(args.interposer):
        ap.error("--interposer: the path of libegemm_cublas.so")
    args.interposer = os.path.abspath(args.interposer)
    entry_points(args) if args.entry_points else table(args)


if __name__ == "__main__":
    main()
