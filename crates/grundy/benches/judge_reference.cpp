// A tight C++ solution of the judge problem, for comparing `grundy graph --format judge`
// against it on the same input: fread, CSR, Kahn's algorithm, mex with a stamp array.
//   GRUNDY_BENCH_WRITE=/tmp/judge.txt cargo bench --bench graph   # write the 2M/10M input
//   g++ -O2 -o judge_reference crates/grundy/benches/judge_reference.cpp
//   time ./judge_reference /tmp/judge.txt; time grundy graph --format judge /tmp/judge.txt
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cstdint>
using namespace std;
static char *buf; static size_t len, pos_;
static inline uint32_t rd() {
    while (pos_ < len && (buf[pos_] < '0' || buf[pos_] > '9')) pos_++;
    uint32_t v = 0;
    while (pos_ < len && buf[pos_] >= '0' && buf[pos_] <= '9') v = v * 10 + (buf[pos_++] - '0');
    return v;
}
int main(int argc, char **argv) {
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    size_t cap = 1 << 26; buf = (char *)malloc(cap); len = 0;
    for (;;) { if (len == cap) { cap *= 2; buf = (char *)realloc(buf, cap); } size_t k = fread(buf + len, 1, cap - len, f); if (!k) break; len += k; }
    uint32_t n = rd(), m = rd(), k = rd();
    vector<uint32_t> xs(m), ys(m), outdeg(n + 1), roff(n + 2), fo(n + 2);
    for (uint32_t i = 0; i < m; i++) { xs[i] = rd() - 1; ys[i] = rd() - 1; fo[xs[i] + 1]++; roff[ys[i] + 1]++; }
    for (uint32_t v = 0; v < n; v++) { fo[v + 1] += fo[v]; roff[v + 1] += roff[v]; }
    vector<uint32_t> ft(m), rt(m), fp(fo.begin(), fo.end()), rp(roff.begin(), roff.end());
    for (uint32_t i = 0; i < m; i++) { ft[fp[xs[i]]++] = ys[i]; rt[rp[ys[i]]++] = xs[i]; }
    vector<uint32_t> pending(n), q; q.reserve(n); vector<uint32_t> sg(n), stamp(n + 2, 0);
    for (uint32_t v = 0; v < n; v++) { pending[v] = fo[v + 1] - fo[v]; if (!pending[v]) q.push_back(v); }
    for (size_t h = 0; h < q.size(); h++) {
        uint32_t v = q[h], d = fo[v + 1] - fo[v];
        for (uint32_t e = fo[v]; e < fo[v + 1]; e++) { uint32_t x = sg[ft[e]]; if (x <= d) stamp[x] = v + 1; }
        uint32_t g = 0; while (stamp[g] == v + 1) g++; sg[v] = g;
        for (uint32_t e = roff[v]; e < roff[v + 1]; e++) if (--pending[rt[e]] == 0) q.push_back(rt[e]);
    }
    uint32_t s = 0; for (uint32_t i = 0; i < k; i++) s ^= sg[rd() - 1];
    puts(s ? "win" : "lose");
}
