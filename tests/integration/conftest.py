"""Integration fixtures: a tiny Llama split (1, 1) exported once, and a way to start its workers."""

from __future__ import annotations

import datetime
import ipaddress

import pytest

from app.model.choices import SplitSpec

TINY_SPLIT = SplitSpec(1, 1)


@pytest.fixture(scope="session")
def tiny_split(tiny_models, tmp_path_factory):
    """(source, transformers model, shard folder) for the tiny Llama cut at (1, 1)."""
    from app.engine.link.export import export_worker_shard
    from app.engine.source.specs import resolve_model

    folder, model = tiny_models["llama"]
    source = resolve_model(str(folder))
    shard = tmp_path_factory.mktemp("tiny-split-shard")
    export_worker_shard(source, TINY_SPLIT, shard)
    return source, model, shard


@pytest.fixture
def start_worker():
    """Start workers for one test (options as LocalWorker's); all are stopped when it ends."""
    from app.engine.link.local_worker import LocalWorker

    started = []

    def start(shard, **options) -> LocalWorker:
        worker = LocalWorker(shard, **options)
        started.append(worker)
        worker.start()
        return worker

    yield start
    for worker in started:
        worker.stop()


@pytest.fixture(scope="session")
def certificate(tmp_path_factory):
    """A self-signed certificate for 127.0.0.1 / localhost, as an admin would make for a rented box."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    folder = tmp_path_factory.mktemp("tls")
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "splitchat test worker")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = folder / "worker.crt", folder / "worker.key"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return cert_file, key_file
