from django.contrib import admin

from .models import Category, Product, Tag


@admin.register(Product)
class ProductAdmin(admin.ModelAdmin):
    list_display = ("name", "category", "price", "in_stock")
    list_filter = ("category", "in_stock")
    search_fields = ("name",)
    filter_horizontal = ("tags",)


admin.site.register(Category)
admin.site.register(Tag)
