from django.apps import AppConfig


class ShopConfig(AppConfig):
    name = "django_site.shop"
    label = "shop"
    verbose_name = "Shop"
