// Tiny Catch2 2.13 benchmark, run with: ./bench -r xml --benchmark-samples 20
#define CATCH_CONFIG_MAIN
#define CATCH_CONFIG_ENABLE_BENCHMARKING
#include <catch2/catch.hpp>
#include <algorithm>
#include <string>
#include <vector>

static std::vector<int> data(int n) {
    std::vector<int> v(n);
    for (int i = 0; i < n; ++i) v[i] = (i * 7919) % n;
    return v;
}

TEST_CASE("sorting", "[bench]") {
    auto v = data(1000);
    BENCHMARK("sort 1000") {
        auto w = v;
        std::sort(w.begin(), w.end());
        return w[0];
    };
    BENCHMARK("stable_sort 1000") {
        auto w = v;
        std::stable_sort(w.begin(), w.end());
        return w[0];
    };
}

TEST_CASE("strings", "[bench]") {
    BENCHMARK("append 50") {
        std::string s;
        for (int i = 0; i < 50; ++i) s += "abc";
        return s.size();
    };
}
