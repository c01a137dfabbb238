#!/usr/bin/env bash
# Collects the strings to translate again into locale/fr/LC_MESSAGES/django.po (Django's
# makemessages: new strings come in empty, strings no longer used go), then compiles every .po into
# its .mo (Django's compilemessages). Translate the new entries, run it again, and commit the .po
# and the .mo together (tests/i18n/test_catalogue.py checks that they agree).
#   scripts/messages.sh            collect, then compile
#   scripts/messages.sh compile    compile only
# Both need GNU gettext (xgettext to collect, msgfmt to compile): Debian's gettext, installed with
# apt-get when missing (as root).
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBUG=true  # development mode, asked for (the settings default to production's)
scripts/bootstrap.sh requirements.txt

if ! command -v xgettext >/dev/null 2>&1 || ! command -v msgfmt >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "messages: installing Debian's gettext (xgettext, msgfmt) to collect and compile the strings" >&2
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null
    else
        echo "messages: collecting and compiling the strings needs GNU gettext (xgettext, msgfmt); install it." >&2
        exit 1
    fi
fi

if [ "${1:-}" != compile ]; then
    .venv/bin/python manage.py makemessages --locale fr --no-obsolete --add-location file \
        --ignore 'tests/*' --ignore 'bench/*' --ignore 'docs/*' --ignore 'artifacts/*' --ignore 'staticfiles/*' -v 0
fi
# compilemessages skips a .mo newer than its .po (as it may be after a checkout): each .po is
# made the newer, so that every catalogue is compiled.
touch locale/*/LC_MESSAGES/*.po
exec .venv/bin/python manage.py compilemessages --ignore '.venv' --ignore 'artifacts' --ignore 'staticfiles' -v 0
