#!/usr/bin/env bash
# Collects the strings to translate again into locale/fr/LC_MESSAGES/django.po (Django's
# makemessages: new strings come in empty, strings no longer used go), then compiles every .po into
# its .mo in plain Python (apiary_site/catalogues.py). Translate the new entries, run it again, and
# commit the .po and the .mo together (tests/test_i18n.py checks that they agree).
#   scripts/messages.sh            collect, then compile
#   scripts/messages.sh compile    compile only (no GNU gettext needed)
# Collecting needs GNU gettext's xgettext: installed with apt-get when missing (as root).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh requirements.txt

if [ "${1:-}" != compile ]; then
    if ! command -v xgettext >/dev/null 2>&1; then
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
            echo "messages: installing Debian's gettext (xgettext) to collect the strings" >&2
            apt-get update -qq >/dev/null
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null
        else
            echo "messages: collecting the strings needs GNU gettext (xgettext); install it, or run '$0 compile'." >&2
            exit 1
        fi
    fi
    .venv/bin/python manage.py makemessages --locale fr --no-obsolete --add-location file \
        --ignore 'tests/*' --ignore 'bench/*' --ignore 'docs/*' --ignore 'artifacts/*' --ignore 'staticfiles/*' -v 0
fi
exec .venv/bin/python -m apiary_site.catalogues
