"""What a notice says, in the player's language: a title and a line for a push notification, a
subject and a body for an e-mail (the e-mail adds the link to the game and the opt-out link)."""

from __future__ import annotations

from dataclasses import dataclass

from domain.i18n import DEFAULT_LANGUAGE, LANGUAGES

# fmt: off
TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "your_turn.title": "Your turn",
        "your_turn.body": "It is your turn in {game}.",
        "game_over.title": "Game over",
        "game_over.body": "Your game of {game} has ended: see how it went.",
        "rematch_offered.title": "Rematch offered",
        "rematch_offered.body": "Your table offers a rematch of {game}: your seat is held for you.",
        "tournament_round.title": "Tournament round ready",
        "tournament_round.body": "Your next tournament game of {game} is ready.",
        "email.open": "Open the game: {url}",
        "email.why": "You receive this because you left this address for notices at Tabletop.",
        "email.opt_out": "No more e-mails: {url}",
    },
    "de": {
        "your_turn.title": "Du bist am Zug",
        "your_turn.body": "Du bist in {game} am Zug.",
        "game_over.title": "Partie beendet",
        "game_over.body": "Deine Partie {game} ist zu Ende: sieh dir an, wie sie ausging.",
        "rematch_offered.title": "Revanche angeboten",
        "rematch_offered.body": (
            "Deine Runde bietet eine Revanche in {game} an: dein Platz ist für dich reserviert."
        ),
        "tournament_round.title": "Turnierrunde bereit",
        "tournament_round.body": "Deine nächste Turnierpartie {game} ist bereit.",
        "email.open": "Zur Partie: {url}",
        "email.why": (
            "Du erhältst diese Nachricht, weil du diese Adresse bei Tabletop für "
            "Benachrichtigungen angegeben hast."
        ),
        "email.opt_out": "Keine E-Mails mehr: {url}",
    },
    "fr": {
        "your_turn.title": "À vous de jouer",
        "your_turn.body": "C'est à vous de jouer dans {game}.",
        "game_over.title": "Partie terminée",
        "game_over.body": "Votre partie de {game} est terminée : voyez comment elle s'est jouée.",
        "rematch_offered.title": "Revanche proposée",
        "rematch_offered.body": "Votre table propose une revanche de {game} : votre place vous est réservée.",
        "tournament_round.title": "Ronde de tournoi prête",
        "tournament_round.body": "Votre prochaine partie de tournoi de {game} est prête.",
        "email.open": "Ouvrir la partie : {url}",
        "email.why": (
            "Vous recevez ce message parce que vous avez laissé cette adresse pour les avis de Tabletop."
        ),
        "email.opt_out": "Ne plus recevoir d'e-mails : {url}",
    },
    "es": {
        "your_turn.title": "Te toca",
        "your_turn.body": "Te toca jugar en {game}.",
        "game_over.title": "Partida terminada",
        "game_over.body": "Tu partida de {game} ha terminado: mira cómo fue.",
        "rematch_offered.title": "Revancha ofrecida",
        "rematch_offered.body": "Tu mesa ofrece una revancha de {game}: tu asiento está reservado.",
        "tournament_round.title": "Ronda de torneo lista",
        "tournament_round.body": "Tu próxima partida de torneo de {game} está lista.",
        "email.open": "Abrir la partida: {url}",
        "email.why": "Recibes este mensaje porque dejaste esta dirección para avisos en Tabletop.",
        "email.opt_out": "No recibir más correos: {url}",
    },
}
# fmt: on

OPT_OUT_PAGE: dict[str, tuple[str, str, str]] = {
    "en": ("E-mail notices", "Stop the e-mail notices sent to {email}?", "Stop e-mails"),
    "de": (
        "E-Mail-Benachrichtigungen",
        "Keine E-Mail-Benachrichtigungen mehr an {email}?",
        "E-Mails abbestellen",
    ),
    "fr": ("Avis par e-mail", "Ne plus envoyer d'avis par e-mail à {email} ?", "Arrêter les e-mails"),
    "es": ("Avisos por correo", "¿Dejar de enviar avisos por correo a {email}?", "Dejar de recibir correos"),
}
"""The opt-out page before it is confirmed: title, question, button."""

OPTED_OUT: dict[str, str] = {
    "en": "Done: no more e-mail notices go to this address.",
    "de": "Erledigt: an diese Adresse gehen keine E-Mail-Benachrichtigungen mehr.",
    "fr": "C'est fait : plus aucun avis par e-mail n'ira à cette adresse.",
    "es": "Hecho: no se enviarán más avisos por correo a esta dirección.",
}
UNKNOWN_LINK: dict[str, str] = {
    "en": "This link is no longer valid: no e-mail notices go out with it.",
    "de": "Dieser Link gilt nicht mehr: über ihn gehen keine E-Mail-Benachrichtigungen hinaus.",
    "fr": "Ce lien n'est plus valable : aucun avis par e-mail n'est envoyé avec lui.",
    "es": "Este enlace ya no es válido: no se envían avisos por correo con él.",
}


@dataclass(frozen=True, slots=True)
class NoticeText:
    title: str
    body: str


def language_of(requested: str | None) -> str:
    return requested if requested in LANGUAGES else DEFAULT_LANGUAGE


def notice_text(kind: str, language: str, game_name: str) -> NoticeText:
    texts = TEXTS[language_of(language)]
    return NoticeText(texts[f"{kind}.title"], texts[f"{kind}.body"].format(game=game_name))


def email_body(kind: str, language: str, game_name: str, game_url: str, opt_out_url: str) -> NoticeText:
    """The subject and the plain-text body of a notice's e-mail."""
    texts = TEXTS[language_of(language)]
    text = notice_text(kind, language, game_name)
    body = "\n\n".join(
        [
            text.body,
            texts["email.open"].format(url=game_url),
            "-- ",
            texts["email.why"],
            texts["email.opt_out"].format(url=opt_out_url),
        ]
    )
    return NoticeText(f"{text.title}: {game_name}", body + "\n")
