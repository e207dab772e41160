"""Settings of the corpus Django site (the database lives in $CORPUS_DJANGO_DATA)."""

import os
from pathlib import Path

DATA = Path(os.environ["CORPUS_DJANGO_DATA"])
SECRET_KEY = "browserx-corpus-not-secret"
DEBUG = True  # runserver serves the admin's static files
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_site.shop",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
]
ROOT_URLCONF = "django_site.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": str(DATA / "db.sqlite3")}}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast seeding and login
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
STATIC_URL = "static/"
USE_TZ = True
LANGUAGE_CODE = "en-us"
# The shop app has no migrations folder (nothing is written into the source tree): migrate
# --run-syncdb creates its tables.
MIGRATION_MODULES = {"shop": None}
