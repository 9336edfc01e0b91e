"""The members of scripts/bench/bench-sale-opening.sh on Locust's API, and the report.

The default load is scripts/bench/load (the same members as a Goose attack, in Rust), which
writes the same log; Locust (ROSACE_BENCH_LOAD=locust) stays for comparison: on two cores it
needs more CPU than the server it measures, and its answers' times include waiting for it.

  sale-opening.py load   CONFIG.json     run the members (forks one Locust process per
                                         CONFIG["procs"]) and write one log per process
  sale-opening.py report CONFIG.json     read the logs (and the server-side figures the
                                         shell script saved) and print the figures

`load` needs Locust (the virtualenv the shell script installs); `report` only the standard
library. CONFIG (written by the shell script) names the sessions file of bench_seed, the
sale (its id, the scarce and plenty products and options, the opening time), the servers,
the arrival window and the scratch folder.

Each simulated member is a Locust FastHttpUser with its own connection, session cookie and
XSRF token. Member i (the i-th line of the sessions file) arrives at opening + i * window /
N, so arrivals are spread evenly over the window whatever the spawn rate, and goes
  home            GET /
  catalog         GET /catalog/{sale}/0
  product         GET /product/{sale}/{scarce product}
  add             POST /api/cartproxy/v1/item (the scarce option); refused (sold out), the
  add_other       same call with an option of another product of the sale (a second choice)
  cart_page       GET /cart
  cart            GET /api/cartproxy/v1 (what the cart page loads)
  freeze          GET /api/cartproxy/orderpiper/cart/v3 (the cart hash)
  pay             POST .../pay with the sandbox card; 202 puts the member in the waiting
  line            line: GET /api/catalog/v1/waiting-line/{ticket} after Retry-After (1 to
                  10 s, as the cart page does) until ready, then pay again with the ticket
as the browser does (app/src/cart/ui/cart_page.rs). A 503 (load shedding) is answered by
waiting its Retry-After (no answer or 408: 1 s) and asking again, as a person reloading
would. Every answer is
logged: `R member step status epoch_start ms`; events: `E member event epoch detail`.
"""
import json
import os
import resource
import subprocess
import sys
import time

CARD = "4242 4242 4242 4242"
PIPE = "/api/cartproxy/orderpiper/cart/v3"
STEPS = ["home", "catalog", "product", "add", "add_other", "cart_page", "cart", "freeze", "pay", "line"]
PAGES = {"home", "catalog", "product", "cart_page"}


def read_members(path):
    with open(path) as f:
        lines = f.read().splitlines()
    return [line.split() for line in lines[1:] if line and not line.startswith("#")]


# ------------------------------------------------------------------------------- load


def load(cfg):
    """Forks one Locust process per cfg["procs"], each with every procs-th member."""
    procs = int(cfg["procs"])
    children = [
        subprocess.Popen([sys.executable, __file__, "load-worker", sys.argv[2], str(k)])
        for k in range(procs)
    ]
    codes = [c.wait() for c in children]
    if any(codes):
        sys.exit(f"sale-opening.py: a load process failed ({codes})")


def load_worker(cfg, k):
    import gevent
    from locust import FastHttpUser, constant, task
    from locust.env import Environment
    from locust.exception import StopUser

    procs = int(cfg["procs"])
    members = read_members(cfg["sessions"])
    n = len(members)
    mine = list(range(k, n, procs))
    hosts = cfg["hosts"]
    opens_at = float(cfg["opens_at"])
    window = float(cfg["window"])
    deadline_per_member = float(cfg["member_deadline"])
    sale = cfg["sale"]
    log = open(os.path.join(cfg["scratch"], f"load-{k}.log"), "w", buffering=1 << 16)
    queue = iter(mine)
    done = {"n": 0}
    cpu0 = resource.getrusage(resource.RUSAGE_SELF)

    def event(member, name, detail=""):
        log.write(f"E {member} {name} {time.time():.6f} {detail}\n")

    class Member(FastHttpUser):
        host = hosts[0]
        wait_time = constant(0)
        network_timeout = 120.0
        connection_timeout = 120.0
        # One connection per member, as one browser tab (HTTP/1.1 keep-alive).
        concurrency = 1

        def call(self, step, method, path, body=None):
            headers = {
                "Cookie": self.cookie,
                "X-XSRF-TOKEN": self.xsrf,
                "Accept-Encoding": "gzip, deflate",
            }
            if step in PAGES:
                headers["Accept"] = "text/html"
            data = None
            if body is not None:
                headers["Content-Type"] = "application/json"
                data = json.dumps(body)
            for _ in range(20):
                t0 = time.time()
                p0 = time.perf_counter()
                r = self.client.request(method, path, data=data, headers=headers, name=step)
                ms = (time.perf_counter() - p0) * 1000
                status = r.status_code or 0
                log.write(f"R {self.mid} {step} {status} {t0:.6f} {ms:.3f}\n")
                # No answer, 408 (the response did not start in time) or 503 (shed): a
                # person reloads or clicks again; a payment asked again with the same cart
                # hash gets the order it made, not a second charge.
                if status in (0, 408, 503) and time.time() < self.deadline:
                    retry = (r.headers or {}).get("Retry-After") if status else None
                    gevent.sleep(float(retry) if retry and retry.isdigit() else 1.0)
                    continue
                return r
            return r

        def json_of(self, r):
            try:
                return r.json()
            except Exception:  # noqa: BLE001 - an answer that is not JSON
                return {}

        @task
        def journey(self):
            i = next(queue)
            mid, token, xsrf = members[i]
            self.mid = mid
            self.cookie = f"rosace_session={token}; XSRF-TOKEN={xsrf}"
            self.xsrf = xsrf
            host = hosts[i % len(hosts)]
            if host != self.host:
                self.host = host
                self.client.base_url = host
            arrive = opens_at + i * window / max(n, 1)
            gevent.sleep(max(0.0, arrive - time.time()))
            self.deadline = time.time() + deadline_per_member
            try:
                event(mid, "arrive", f"{i} {hosts.index(host)}")
                self.shop(sale)
            finally:
                done["n"] += 1
            raise StopUser()

        def fail(self, step, r):
            event(self.mid, "failed", f"{step}:{r.status_code or 0}")

        def shop(self, sale):
            for step, path in [
                ("home", "/"),
                ("catalog", f"/catalog/{sale['id']}/0"),
                ("product", f"/product/{sale['id']}/{sale['scarce_product']}"),
            ]:
                r = self.call(step, "GET", path)
                if r.status_code != 200:
                    return self.fail(step, r)
            item = {"product_id": str(sale["scarce_option"]), "quantity": 1, "cart_type": "fs"}
            r = self.call("add", "POST", "/api/cartproxy/v1/item", item)
            got = "scarce"
            if r.status_code != 201:
                # Sold out (or refused): the member takes another product of the sale.
                item["product_id"] = str(sale["plenty_option"])
                r = self.call("add_other", "POST", "/api/cartproxy/v1/item", item)
                got = "plenty"
                if r.status_code != 201:
                    return self.fail("add_other", r)
            event(self.mid, "added", got)
            r = self.call("cart_page", "GET", "/cart")
            if r.status_code != 200:
                return self.fail("cart_page", r)
            r = self.call("cart", "GET", "/api/cartproxy/v1")
            if r.status_code != 200:
                return self.fail("cart", r)
            r = self.call("freeze", "GET", PIPE)
            cart_hash = self.json_of(r).get("cartHash") if r.status_code == 200 else None
            if not cart_hash:
                return self.fail("freeze", r)
            ticket = None
            queued = False
            while time.time() < self.deadline:
                body = {
                    "cartHash": cart_hash,
                    "generateDeeplinkReturnUrl": False,
                    "card": CARD,
                    "saveCard": False,
                    "waitingLineTicket": ticket,
                    "addressId": None,
                }
                r = self.call("pay", "POST", f"{PIPE}/pay", body)
                if r.status_code == 200:
                    paid = self.json_of(r)
                    return event(self.mid, "paid", paid.get("orderId", "-"))
                if r.status_code == 409:
                    # This member's payment is still running (a retry): ask again.
                    gevent.sleep(1.0)
                    continue
                if r.status_code != 202:
                    return self.fail("pay", r)
                line = self.json_of(r).get("waitingLine") or {}
                if not queued:
                    queued = True
                    event(self.mid, "queued", line.get("position", "-"))
                ticket = None
                while time.time() < self.deadline:
                    delay = min(max(int(line.get("retryAfter", 1) or 1), 1), 10)
                    gevent.sleep(delay)
                    r = self.call("line", "GET", f"/api/catalog/v1/waiting-line/{line.get('ticket', '-')}")
                    if r.status_code != 200:
                        break  # lapsed (410): paying again takes a new place, or pays
                    line = self.json_of(r)
                    if line.get("ready") or line.get("position") == 0:
                        ticket = line.get("ticket")
                        break
            return event(self.mid, "failed", "deadline")

    env = Environment(user_classes=[Member], host=hosts[0])
    runner = env.create_local_runner()
    started = time.time()
    runner.start(len(mine), spawn_rate=max(len(mine), 1) * 2)
    spawned_at = None
    limit = opens_at + window + deadline_per_member + 30
    while done["n"] < len(mine) and time.time() < limit:
        if spawned_at is None and runner.user_count >= len(mine):
            spawned_at = time.time()
        gevent.sleep(0.2)
    runner.quit()
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    log.write(
        f"P {k} {len(mine)} {done['n']} {started:.3f} {spawned_at or 0:.3f} {time.time():.3f} {cpu:.3f}\n"
    )
    log.close()


# ------------------------------------------------------------------------------ report


def pct(values, p):
    """The p-th percentile (nearest rank) of sorted values."""
    if not values:
        return float("nan")
    rank = max(1, min(len(values), int(-(-p * len(values) // 100))))
    return values[rank - 1]


def inversions(seq):
    """Pairs out of order in seq (merge sort count)."""
    def sort(a):
        if len(a) < 2:
            return a, 0
        mid = len(a) // 2
        left, x = sort(a[:mid])
        right, y = sort(a[mid:])
        merged, inv, i, j = [], x + y, 0, 0
        while i < len(left) and j < len(right):
            if left[i] <= right[j]:
                merged.append(left[i])
                i += 1
            else:
                merged.append(right[j])
                inv += len(left) - i
                j += 1
        merged += left[i:] + right[j:]
        return merged, inv
    return sort(list(seq))[1]


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0] * len(values)
    for rank, i in enumerate(order):
        r[i] = rank
    return r


def fairness(first, then):
    """Kendall's tau (no ties), share of inverted pairs and Spearman's rho between two
    orders of the same members, given as parallel lists of sort keys."""
    n = len(first)
    if n < 2:
        return None
    by_first = sorted(range(n), key=lambda i: first[i])
    then_ranks = ranks(then)
    inv = inversions([then_ranks[i] for i in by_first])
    pairs = n * (n - 1) // 2
    first_ranks = ranks(first)
    d2 = sum((a - b) ** 2 for a, b in zip(first_ranks, then_ranks))
    rho = 1 - 6 * d2 / (n * (n * n - 1))
    return {"n": n, "tau": 1 - 2 * inv / pairs, "inverted": inv / pairs, "rho": rho}


def histogram_quantile(q, buckets):
    """Prometheus' histogram_quantile over [(le, cumulative count)], le ascending."""
    total = buckets[-1][1] if buckets else 0
    if total == 0:
        return float("nan")
    rank = q * total
    prev_le, prev_c = 0.0, 0
    for le, c in buckets:
        if c >= rank:
            if le == float("inf"):
                return prev_le
            if c == prev_c:
                return le
            return prev_le + (le - prev_le) * (rank - prev_c) / (c - prev_c)
        prev_le, prev_c = le, c
    return prev_le


def scrape_histograms(path):
    """{(method, route): {le: count}} from a saved /metrics text."""
    out = {}
    if not os.path.exists(path):
        return out
    for line in open(path):
        if not line.startswith("rosace_http_request_duration_seconds_bucket{"):
            continue
        labels, value = line.rsplit(" ", 1)
        fields = dict(
            kv.split("=", 1) for kv in labels[labels.index("{") + 1 : labels.rindex("}")].split(",")
        )
        fields = {k: v.strip('"') for k, v in fields.items()}
        le = float("inf") if fields["le"] == "+Inf" else float(fields["le"])
        key = (fields["method"], fields["route"])
        by_le = out.setdefault(key, {})
        by_le[le] = by_le.get(le, 0) + float(value)
    return out


def server_side(cfg):
    """Per route: requests during the run, p50/p99 (bucket interpolation) and the share
    answered within 250 ms, from the difference of the scrapes before and after, summed
    over the instances."""
    total = {}
    for k in range(len(cfg["hosts"])):
        before = scrape_histograms(os.path.join(cfg["scratch"], f"metrics-{k}-before.txt"))
        after = scrape_histograms(os.path.join(cfg["scratch"], f"metrics-{k}-after.txt"))
        for key, by_le in after.items():
            b = before.get(key, {})
            t = total.setdefault(key, {})
            for le, c in by_le.items():
                t[le] = t.get(le, 0) + c - b.get(le, 0)
    rows = []
    for (method, route), by_le in total.items():
        buckets = sorted(by_le.items())
        count = buckets[-1][1] if buckets else 0
        if count <= 0 or route == "/metrics":
            continue
        within = by_le.get(0.25, 0)
        rows.append((route, method, int(count), histogram_quantile(0.5, buckets) * 1000,
                     histogram_quantile(0.99, buckets) * 1000, within / count))
    return sorted(rows, key=lambda r: -r[2])


def report(cfg):
    scratch = cfg["scratch"]
    answers = {s: [] for s in STEPS}
    statuses = {s: {} for s in STEPS}
    events = {}
    procs = []
    for name in sorted(os.listdir(scratch)):
        if not (name.startswith("load-") and name.endswith(".log")):
            continue
        for line in open(os.path.join(scratch, name)):
            f = line.split()
            if not f:
                continue
            if f[0] == "R":
                _, member, step, status, t0, ms = f
                answers[step].append(float(ms))
                statuses[step][status] = statuses[step].get(status, 0) + 1
            elif f[0] == "E":
                member, ev, at = f[1], f[2], float(f[3])
                events.setdefault(member, {})[ev] = (at, f[4:])
            elif f[0] == "P":
                procs.append(f[1:])
    n = int(cfg["members"])
    paid = {m: e["paid"] for m, e in events.items() if "paid" in e}
    failed = {m: e["failed"][1] for m, e in events.items() if "failed" in e}
    arrived = {m: e["arrive"] for m, e in events.items() if "arrive" in e}
    got = {}
    for e in events.values():
        if "added" in e:
            got[e["added"][1][0]] = got.get(e["added"][1][0], 0) + 1
    opens_at = float(cfg["opens_at"])
    last_paid = max((at for at, _ in paid.values()), default=opens_at)
    span = max(last_paid - opens_at, 1e-9)

    print(f"members {n}, arrived {len(arrived)}, paid {len(paid)}, not paid {n - len(paid)}"
          f" (failed: {len(failed)})")
    if failed:
        why = {}
        for detail in failed.values():
            key = detail[0] if detail else "?"
            why[key] = why.get(key, 0) + 1
        print("  failed at: " + ", ".join(f"{k} x{v}" for k, v in sorted(why.items())))
    print(f"items in carts: scarce {got.get('scarce', 0)}, second choice {got.get('plenty', 0)}")
    print(f"completed purchases/s: {len(paid) / span:.1f} (opening to last payment: {span:.1f} s)")
    print()
    print("client side (the load tool, every answer including retries; ms):")
    print(f"  {'step':<10} {'answers':>8} {'p50':>8} {'p99':>8} {'max':>8}  answers by status")
    for s in STEPS:
        v = sorted(answers[s])
        if not v:
            continue
        st = " ".join(f"{k}:{c}" for k, c in sorted(statuses[s].items()))
        print(f"  {s:<10} {len(v):>8} {pct(v, 50):>8.1f} {pct(v, 99):>8.1f} {v[-1]:>8.1f}  {st}")
    rows = server_side(cfg)
    if rows:
        print()
        print("server side (/metrics histograms, summed over instances; p50/p99 interpolated"
              " within buckets; ms):")
        print(f"  {'route':<48} {'requests':>8} {'p50':>8} {'p99':>8} {'<=250ms':>8}")
        for route, method, count, p50, p99, within in rows:
            print(f"  {method + ' ' + route:<48} {count:>8} {p50:>8.1f} {p99:>8.1f} {within:>8.1%}")
    page_p99 = max((pct(sorted(answers[s]), 99) for s in PAGES if answers[s]), default=float("nan"))
    server_pages = [r for r in rows if r[0].startswith("page:")]
    server_p99 = max((r[4] for r in server_pages), default=float("nan"))
    print()
    queued = {m: e["queued"][0] for m, e in events.items() if "queued" in e and "paid" in e}
    order_of = {}
    for m, (at, detail) in paid.items():
        try:
            order_of[m] = int(detail[0])
        except (ValueError, IndexError):
            order_of[m] = None
    print(f"waiting line: {len(queued)} of {len(paid)} paying members were queued"
          f" (checkout capacity {cfg['capacity']})")
    line = [m for m in queued if order_of.get(m) is not None]
    fair = fairness([queued[m] for m in line], [order_of[m] for m in line])
    tau = fair["tau"] if fair else float("nan")
    if fair:
        print(f"  fairness, line entry vs order id: Kendall tau {fair['tau']:.3f},"
              f" inverted pairs {fair['inverted']:.2%}, Spearman rho {fair['rho']:.3f} (n {fair['n']})")
    else:
        print("  fairness: nobody waited in line (nothing to order)")
    everyone = [m for m in paid if m in arrived and order_of.get(m) is not None]
    fair = fairness([arrived[m][0] for m in everyone], [order_of[m] for m in everyone])
    if fair:
        print(f"  arrival at the shop vs order id (every buyer): Kendall tau {fair['tau']:.3f},"
              f" inverted pairs {fair['inverted']:.2%}, Spearman rho {fair['rho']:.3f}")
    print()
    for k, count, finished, started, spawned, ended, cpu in procs:
        wall = float(ended) - float(started)
        late = float(spawned) - opens_at if float(spawned) else float("nan")
        print(f"load process {k}: {finished}/{count} members, CPU {float(cpu):.1f} s over"
              f" {wall:.1f} s wall ({float(cpu) / max(wall, 1e-9):.0%}),"
              f" all spawned {-late:.1f} s before the opening")
        if not late < -1.0:
            # Starting 5,000 members takes the load tool about 12 CPU-seconds (each gets
            # an HTTP client of its own, as each browser has): overlapping the arrivals,
            # it measured itself (a client page p99 of 6.6 s against 0.3 s, session 70).
            print(f"WARNING: load process {k} was still starting members at the opening:"
                  " this run's client figures are the load tool's; raise ROSACE_BENCH_LEAD")
    print(f"summary: {len(paid)} {len(paid) / span:.1f} {page_p99:.0f} {server_p99:.0f} {len(queued)} {tau:.3f}")
    return 0


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("load", "load-worker", "report"):
        sys.exit(__doc__)
    with open(sys.argv[2]) as f:
        cfg = json.load(f)
    if sys.argv[1] == "load":
        load(cfg)
    elif sys.argv[1] == "load-worker":
        load_worker(cfg, int(sys.argv[3]))
    else:
        sys.exit(report(cfg))


if __name__ == "__main__":
    main()
