# Tabletop API image. Production runs PostgreSQL (TABLETOP_DATABASE_URL) and, with several
# instances, Redis (TABLETOP_REDIS_URL); see README "Running in production".
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    TABLETOP_DATABASE_URL=sqlite:////data/tabletop.db

WORKDIR /app
COPY pyproject.toml constraints.txt README.md alembic.ini ./
COPY domain ./domain
COPY persistence ./persistence
COPY api ./api
COPY web ./web
# Only what serving needs (no dev extra), at the versions pinned in constraints.txt (./run lock).
RUN pip install --no-cache-dir --constraint constraints.txt . \
    && useradd --create-home --uid 10001 tabletop \
    && mkdir -p /data && chown tabletop /data

USER tabletop
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz')"
# Migrate (idempotent, serialised across instances by an advisory lock on PostgreSQL), then serve.
CMD ["sh", "-c", "python -m api migrate && exec python -m api serve --host 0.0.0.0 --port 8000"]
