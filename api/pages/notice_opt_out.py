"""The opt-out link of e-mail notices: ``/notices/opt-out/{token}``, no sign-in needed.

Opening the link shows a page that asks; its button (a POST to the same address) turns the
e-mail notices of that address off. A mail program's one-click unsubscribe (RFC 8058:
``List-Unsubscribe-Post: List-Unsubscribe=One-Click``) posts there directly. A GET never changes
anything, so a mail scanner that opens every link does not unsubscribe anyone.
"""

from __future__ import annotations

from html import escape
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse

from api.bootstrap import Container
from api.deps import get_container
from domain.i18n import negotiate
from domain.model.notice_texts import OPT_OUT_PAGE, OPTED_OUT, UNKNOWN_LINK, language_of
from domain.model.notices import EmailContact

router = APIRouter(include_in_schema=False)

PATH = "/notices/opt-out/{token}"


def _page(lang: str, title: str, body: str, status: int = 200) -> HTMLResponse:
    html = (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title></head>"
        '<body style="font: 18px/1.5 system-ui, sans-serif; max-width: 36rem; margin: 2rem auto; '
        'padding: 0 1rem">'
        f"<h1>{escape(title)}</h1>{body}</body></html>"
    )
    return HTMLResponse(html, status_code=status, headers={"Cache-Control": "no-store"})


def _masked(email: str) -> str:
    """The address as the page shows it to whoever holds the link: enough to recognise it."""
    local, _, domain = email.partition("@")
    return f"{local[:2]}…@{domain}"


@router.get(PATH)
def opt_out_page(
    token: str, request: Request, container: Annotated[Container, Depends(get_container)]
) -> HTMLResponse:
    contact = container.notices.opt_out_contact(token)
    lang = _language(contact, request)
    title, question, button = OPT_OUT_PAGE[lang]
    if contact is None or not contact.enabled:
        return _answer(lang, contact)
    form = (
        f"<p>{escape(question.format(email=_masked(contact.email)))}</p>"
        f'<form method="post"><button type="submit" name="List-Unsubscribe" value="One-Click" '
        f'style="font-size: 1.1rem; min-height: 44px; padding: 0 1.5rem">{escape(button)}</button></form>'
    )
    return _page(lang, title, form)


@router.post(PATH)
def opt_out(
    token: str, request: Request, container: Annotated[Container, Depends(get_container)]
) -> HTMLResponse:
    contact = container.notices.opt_out(token)
    return _answer(_language(contact, request), contact)


def _language(contact: EmailContact | None, request: Request) -> str:
    """The address's own language; for a link that names none, the browser's."""
    return language_of(
        contact.language if contact else negotiate(None, request.headers.get("accept-language"))
    )


def _answer(lang: str, contact: EmailContact | None) -> HTMLResponse:
    """The page once the address is off, or 404 for a link that names no address."""
    title = OPT_OUT_PAGE[lang][0]
    if contact is None:
        return _page(lang, title, f"<p>{escape(UNKNOWN_LINK[lang])}</p>", 404)
    return _page(lang, title, f'<p role="status">{escape(OPTED_OUT[lang])}</p>')
