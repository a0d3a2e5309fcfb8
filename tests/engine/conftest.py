"""Databases for the class-mode tests: a SQLite file, and a schema of its own on a throwaway PostgreSQL cluster
(tests/postgres.py)."""
import uuid
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from sqlalchemy.pool import NullPool
from sqlalchemy.schema import CreateSchema, DropSchema

from classroom import classes
from tests.postgres import postgres_server  # noqa: F401 (a fixture)

DATABASES = ("sqlite", "postgresql")


@pytest.fixture(params=DATABASES)
def db_url(request, tmp_path) -> Iterator[sa.URL]:
    """A database no other test uses: a SQLite file, or a PostgreSQL schema first on the search path."""
    if request.param == "sqlite":
        yield sa.make_url(f"sqlite:///{tmp_path / 'classes.db'}")
        return
    server = request.getfixturevalue("postgres_server")
    schema = f"test_{uuid.uuid4().hex}"
    admin = sa.create_engine(server, poolclass=NullPool, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(CreateSchema(schema))
    yield sa.make_url(server).update_query_dict({"options": f"-csearch_path={schema}"})
    with admin.connect() as conn:
        conn.execute(DropSchema(schema, cascade=True))
    admin.dispose()


@pytest.fixture
def engine(db_url) -> Iterator[sa.Engine]:
    """An engine on a fresh database, as st.connection(type="sql") makes one."""
    made = sa.create_engine(db_url)
    yield made
    made.dispose()


@pytest.fixture
def db(engine) -> sa.Engine:
    """The engine with class mode's tables made."""
    classes.create(engine)
    return engine
