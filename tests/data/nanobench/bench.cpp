// Tiny nanobench benchmark: writes JSON and CSV with nanobench's own templates.
#define ANKERL_NANOBENCH_IMPLEMENT
#include "nanobench.h"
#include <fstream>
#include <string>
#include <vector>
#include <algorithm>

int main(int argc, char** argv) {
    std::string out = argc > 1 ? argv[1] : "nanobench";
    ankerl::nanobench::Bench bench;
    bench.title("containers").unit("item").warmup(10).epochs(21).minEpochIterations(200);
    std::vector<int> v(1000);
    for (int i = 0; i < 1000; ++i) v[i] = (i * 7919) % 1000;
    bench.batch(v.size()).run("sort 1000", [&] {
        auto w = v;
        std::sort(w.begin(), w.end());
        ankerl::nanobench::doNotOptimizeAway(w.data());
    });
    bench.batch(1).run("string append", [&] {
        std::string s;
        for (int i = 0; i < 50; ++i) s += "abc";
        ankerl::nanobench::doNotOptimizeAway(s);
    });
    bench.batch(1).run("vector push_back 100", [&] {
        std::vector<int> w;
        for (int i = 0; i < 100; ++i) w.push_back(i);
        ankerl::nanobench::doNotOptimizeAway(w.data());
    });
    std::ofstream j(out + ".json");
    bench.render(ankerl::nanobench::templates::json(), j);
    std::ofstream c(out + ".csv");
    bench.render(ankerl::nanobench::templates::csv(), c);
    return 0;
}
