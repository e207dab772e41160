"""Set up the corpus Django site in DATA (migrate, a superuser, a few products) and serve it:
``python serve.py DATA PORT`` (runs with .venv-apps' Python)."""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ["CORPUS_DJANGO_DATA"] = sys.argv[1]
os.environ["DJANGO_SETTINGS_MODULE"] = "django_site.settings"

import django
from django.core.management import call_command

USERNAME, PASSWORD = "admin", "corpus-pass-123"


def seed() -> None:
    from django.contrib.auth.models import Group, User
    from django_site.shop.models import Category, Product, Tag

    User.objects.create_superuser(USERNAME, "admin@example.com", PASSWORD)
    User.objects.create_user("ada", "ada@example.com", "x", first_name="Ada", last_name="Lovelace")
    for name in ("Editors", "Support", "Warehouse"):
        Group.objects.create(name=name)
    teas = Category.objects.create(name="Tea")
    ware = Category.objects.create(name="Teaware")
    tags = {name: Tag.objects.create(name=name) for name in ("organic", "gift", "new", "bestseller")}
    for name, cat, price, stock, tag_names in [
        ("Sencha", teas, "12.50", True, ["organic"]),
        ("Gyokuro", teas, "24.00", True, ["gift", "bestseller"]),
        ("Matcha", teas, "18.90", False, ["new"]),
        ("Kyusu teapot", ware, "39.00", True, ["gift"]),
        ("Tea bowl", ware, "15.00", True, []),
    ]:
        product = Product.objects.create(name=name, category=cat, price=price, in_stock=stock)
        product.tags.set([tags[t] for t in tag_names])


if __name__ == "__main__":
    django.setup()
    data = Path(sys.argv[1])
    fresh = not (data / "db.sqlite3").exists()
    call_command("migrate", run_syncdb=True, verbosity=0)
    if fresh:
        seed()
    call_command("runserver", f"127.0.0.1:{sys.argv[2]}", use_reloader=False, use_threading=True)
