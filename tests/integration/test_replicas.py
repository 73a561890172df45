"""Worker replicas behind a real HAProxy (the shipped configuration), and the Kubernetes manifests.

A replica killed mid-answer costs its sessions a reconnect through the balancer to the other replica
and a re-prefill; every session's tokens stay exactly what the unsplit model gives.
"""

from __future__ import annotations

import asyncio
import ssl
import time
import urllib.request
from pathlib import Path

import pytest
import yaml

from app.bench.balancer import SHIPPED_CONFIG, Balancer, haproxy_binary, local_config
from app.engine.link.local_worker import LocalWorker
from app.resources import CODE_ROOT
from app.wire.tls import file_certificate_sha256
from tests.helpers import open_split_session, reference_greedy
from tests.integration.conftest import TINY_SPLIT as SPLIT

MANIFESTS = CODE_ROOT / "packaging" / "worker" / "kubernetes"
needs_haproxy = pytest.mark.skipif(
    haproxy_binary() is None, reason="HAProxy is not installed (.ci/run installs it where it runs as root)"
)


def _prompts(count: int) -> list[list[int]]:
    return [[(7 * i + 13 * j) % 300 + 1 for j in range(6 + 3 * i)] for i in range(count)]


@needs_haproxy
async def test_a_replica_killed_mid_answer_behind_haproxy_changes_no_token(tiny_split, certificate):
    source, model, shard = tiny_split
    cert, key = certificate
    tls = ("--tls-cert", str(cert), "--tls-key", str(key))
    first = LocalWorker(shard, extra_args=tls)
    first.start()
    second = LocalWorker(shard, extra_args=tls, shared_token=(first.token_file, first.token))
    second.start()
    balancer = Balancer([first.endpoint, second.endpoint])
    try:
        pin = file_certificate_sha256(cert)
        health = urllib.request.urlopen(  # through the balancer, as a load balancer's probe would
            f"https://127.0.0.1:{balancer.port}/healthz", context=ssl._create_unverified_context(), timeout=10
        )
        assert health.status == 200 and health.read() == b"ok\n"
        opened = [
            await open_split_session(source, SPLIT, balancer.endpoint, first.token, mode=mode, cert_sha256=pin)
            for mode in ("sequential", "lookahead") * 4
        ]
        prompts = _prompts(len(opened))
        produced = [0]

        def count(_token: int) -> None:
            produced[0] += 1
            if produced[0] == 40:  # every session is mid-answer: one replica dies
                first.kill()

        started = time.perf_counter()
        answers = await asyncio.gather(
            *(
                session.generate(prompt, 24, on_token=count)
                for (session, _), prompt in zip(opened, prompts, strict=True)
            )
        )
        print(f"8 sessions through HAProxy, one replica killed: {time.perf_counter() - started:.1f} s")
        for prompt, answer in zip(prompts, answers, strict=True):
            assert answer.tokens == reference_greedy(model, prompt, 24)
        recovered = [notices for _, notices in opened if any("reconnecting" in n for n in notices)]
        assert 1 <= len(recovered) < len(opened)  # the killed replica's sessions, and only they
        await asyncio.gather(*(session.close() for session, _ in opened))
    finally:
        balancer.stop()
        first.stop()
        second.stop()


def test_the_local_balancer_changes_only_the_address_and_the_servers():
    shipped = SHIPPED_CONFIG.read_text()
    local = local_config(["ws://127.0.0.1:4001", "ws://127.0.0.1:4002"], 9000)
    assert "bind 127.0.0.1:9000" in local and "server worker2 127.0.0.1:4002" in local
    assert "10.0.0.11" not in local and "check-ssl verify none" not in local  # plain workers get plain health checks
    for setting in ("balance leastconn", "option redispatch", "uri /healthz", "mode tcp"):
        assert setting in shipped and setting in local
    secure = local_config(["wss://127.0.0.1:4001"], 9000)
    assert "check-ssl verify none" in secure


def test_kubernetes_manifests_are_valid_and_probe_the_health_endpoint():
    import kubernetes_validate

    documents = {path.name: yaml.safe_load(path.read_text()) for path in sorted(MANIFESTS.glob("*.yaml"))}
    assert set(documents) == {"deployment.yaml", "service.yaml"}
    for document in documents.values():
        kubernetes_validate.validate(document, "1.30.0", strict=True)  # raises on any schema error
    pod = documents["deployment.yaml"]["spec"]["template"]["spec"]
    worker = pod["containers"][0]
    assert worker["resources"]["requests"]["nvidia.com/gpu"] == 1
    assert worker["readinessProbe"]["httpGet"]["path"] == "/healthz"
    port = worker["ports"][0]
    assert port["containerPort"] == 8765 and worker["readinessProbe"]["httpGet"]["port"] == port["name"]
    assert "--token-file" in worker["args"] and all(not mount.get("subPath") for mount in worker["volumeMounts"])
    service = documents["service.yaml"]["spec"]
    assert service["selector"] == documents["deployment.yaml"]["spec"]["selector"]["matchLabels"]
    assert service["ports"][0]["targetPort"] == port["name"]


@needs_haproxy
def test_the_shipped_haproxy_configuration_is_valid():
    import subprocess

    check = subprocess.run([haproxy_binary(), "-c", "-f", str(SHIPPED_CONFIG)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    assert Path(SHIPPED_CONFIG).read_text().count("server worker") == 2
