from django.contrib import admin

from community.models import Block, ChatMessage, Mute, Report, Sanction

admin.site.register(ChatMessage)
admin.site.register(Mute)
admin.site.register(Block)
admin.site.register(Report)
admin.site.register(Sanction)
