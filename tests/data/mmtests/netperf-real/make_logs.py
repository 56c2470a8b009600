"""Write netperf UDP_STREAM logs as mmtests' netperf shellpack leaves them in
`work/log/<run>/iter-N/netperf-udp/logs/` (a `protocols` file, `UDP_STREAM-<size>.<rep>`
holding netperf's own output), for mmtests' real parse-results to read."""

import os
import random

random.seed(7)
for it in range(2):
    d = f"log/iter-{it}/netperf-udp/logs"
    os.makedirs(d, exist_ok=True)
    with open(f"{d}/protocols", "w") as fh:
        fh.write("UDP_STREAM\n")
    for size in (64, 1024, 16384):
        base = {64: 860.0, 1024: 11800.0, 16384: 64000.0}[size]
        for rep in (1, 2, 3):
            send = base * random.uniform(0.97, 1.03)
            recv = send * random.uniform(0.97, 0.999)
            sent, got = int(send * 1e6 / 8 / size * 60), int(recv * 1e6 / 8 / size * 60)
            with open(f"{d}/UDP_STREAM-{size}.{rep}", "w") as fh:
                fh.write(
                    "MIGRATED UDP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to "
                    "127.0.0.1 () port 0 AF_INET : +/-2.500% @ 99% conf.  : demo\n"
                    "Socket  Message  Elapsed      Messages\n"
                    "Size    Size     Time         Okay Errors   Throughput\n"
                    "bytes   bytes    secs            #      #   10^6bits/sec\n\n"
                    f"212992    {size}   60.00     {sent}      0     {send:.2f}\n"
                    f"212992           60.00     {got}            {recv:.2f}\n\n"
                )
