"""ConnectionScreen (ctrl+o): switch to another server at runtime.

Pick a profile from the config file (or the embedded server), or type a URL, an API key
(masked), an email and password to log in with (DeerFlow; the password masked) and the
backend kind. The key and the password are used for this session only: never shown,
logged or saved. Dismisses with a Connection for ThreadbenchApp.switch_server, or None.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from urllib.parse import urlparse

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from ...backends.base import Credentials
from ...backends.headers import api_key_problem
from ...config import API_KEY_ENV_VARS, PASSWORD_ENV
from ...server_kinds import AUTO_LABEL, REGISTRY
from ...settings_file import Profile
from ..text import clean
from ..typed_keys import after_typed_keys

EMBEDDED = "__embedded__"
CUSTOM = "__custom__"
KINDS = [(AUTO_LABEL, "auto"), *((kind.label, kind.name) for kind in REGISTRY)]


@dataclass
class Connection:
    url: str
    api_key: str | None = field(default=None, repr=False)
    kind: str = "auto"
    profile: str | None = None
    """The profile chosen (None: typed by hand, or the embedded server)."""
    key_source: str = "none"
    """Where the key comes from, for display: "typed", "$NAME" or "none" (never the key)."""
    credentials: Credentials | None = None
    """The email and password to log in with (DeerFlow)."""


class LoginProblem(ValueError):
    """An email without a password, or a password without an email; str() says which."""


def check_url(text: str) -> str:
    url = text.strip().rstrip("/")
    parsed = urlparse(url)
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise ValueError(f"{clean(url)!r} is not a server address: it should look like http://127.0.0.1:2024.")
    return url


class ConnectionScreen(ModalScreen[Connection | None]):
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="connection.cancel"),
        Binding("ctrl+s", "connect", "Connect", priority=True, id="connection.connect"),
    ]

    def __init__(
        self,
        profiles: dict[str, Profile],
        *,
        current_url: str = "",
        current_kind: str = "",
        current_profile: str | None = None,
        embedded_url: str | None = None,
    ) -> None:
        super().__init__(classes="modal")
        self.profiles = profiles
        self.current_url = current_url
        self.current_kind = current_kind
        self.current_profile = current_profile
        self.embedded_url = embedded_url

    def compose(self) -> ComposeResult:
        choices: list[tuple[str | Content, str]] = []
        if self.embedded_url:
            choices.append((Content.assemble("embedded server ", ("(the demo agent)", "dim")), EMBEDDED))
        for name, profile in sorted(self.profiles.items()):
            choices.append((Content.assemble(clean(name), ("  " + clean(profile.url), "dim")), name))
        choices.append(("a URL typed here", CUSTOM))
        initial = self.current_profile if self.current_profile in self.profiles else CUSTOM
        if initial == CUSTOM and self.embedded_url and self.current_url == self.embedded_url:
            initial = EMBEDDED
        with Vertical(classes="dialog -wide", id="connection-dialog"):
            yield Static(Content.styled("Connect to a server", "bold"), classes="dialog-title")
            yield Static(
                Content.assemble(
                    ("now: ", "dim"),
                    clean(self.current_url or "nothing yet"),
                    (f"  ({self.current_kind})" if self.current_kind else "", "dim"),
                ),
                id="connection-now",
            )
            with Horizontal(classes="dialog-row"):
                with Vertical(classes="-wide"):
                    yield Label("Profile (from the config file)")
                    yield Select(choices, value=initial, allow_blank=False, id="connection-profile")
                with Vertical(classes="-right"):
                    yield Label("Backend")
                    yield Select(KINDS, value="auto", allow_blank=False, id="connection-kind")
            yield Label("URL")
            yield Input(placeholder="http://127.0.0.1:2024", id="connection-url")
            yield Label("API key (for this session only: never shown, logged or saved)")
            yield Input(password=True, placeholder="none", id="connection-key")
            with Horizontal(classes="dialog-row"):
                with Vertical():
                    yield Label("Log in as (DeerFlow)")
                    yield Input(placeholder="none", id="connection-email")
                with Vertical(classes="-right"):
                    yield Label("Password (the same: this session only)")
                    yield Input(password=True, placeholder="none", id="connection-password")
            yield Static(id="connection-error", classes="dialog-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Connect (ctrl+s)", variant="primary", id="connection-ok")
                yield Button("Cancel (esc)", id="connection-cancel")

    def on_mount(self) -> None:
        self.fill_from_choice(self.query_one("#connection-profile", Select).value)
        if self.query_one("#connection-profile", Select).value == CUSTOM:
            url = self.query_one("#connection-url", Input)
            url.value = self.current_url
            url.focus()
        else:
            self.query_one("#connection-profile", Select).focus()

    @on(Select.Changed, "#connection-profile")
    def profile_changed(self, event: Select.Changed) -> None:
        self.fill_from_choice(event.value)

    def fill_from_choice(self, choice: object) -> None:
        url = self.query_one("#connection-url", Input)
        key = self.query_one("#connection-key", Input)
        kind = self.query_one("#connection-kind", Select)
        email = self.query_one("#connection-email", Input)
        profile = self.profiles.get(choice) if isinstance(choice, str) else None
        if choice == EMBEDDED:
            url.value, kind.value = self.embedded_url or "", "langgraph"
            key.placeholder = "none (the embedded server needs no key)"
        elif profile is not None:
            url.value, kind.value = profile.url, profile.backend
            if profile.api_key_env:
                state = "set" if os.environ.get(profile.api_key_env) else "NOT set"
                key.placeholder = f"from ${profile.api_key_env} ({state}); type one to use it instead"
            else:
                key.placeholder = "none"
        else:
            key.placeholder = "none (or $LANGGRAPH_API_KEY / $LANGSMITH_API_KEY if set)"
        email.value = (profile.email or "") if profile else ""
        self.query_one("#connection-password", Input).placeholder = self._password_placeholder(profile)
        for widget in (url, kind, email, self.query_one("#connection-password", Input)):
            widget.disabled = choice == EMBEDDED

    @staticmethod
    def _password_variables(profile: Profile | None) -> list[str]:
        return [name for name in (profile.password_env if profile else None, PASSWORD_ENV) if name]

    def _password_placeholder(self, profile: Profile | None) -> str:
        name = self._password_variables(profile)[0]
        return f"from ${name} ({'set' if os.environ.get(name) else 'NOT set'})"

    @on(Input.Submitted)
    def submitted(self) -> None:
        self.action_connect()

    @on(Button.Pressed)
    def button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "connection-ok":
            self.action_connect()
        else:
            self.action_cancel()

    @after_typed_keys
    def action_connect(self) -> None:
        error = self.query_one("#connection-error", Static)
        choice = self.query_one("#connection-profile", Select).value
        try:
            url = check_url(self.query_one("#connection-url", Input).value)
        except ValueError as bad_url:
            error.update(Content.styled(str(bad_url), "$error"))
            return
        typed = self.query_one("#connection-key", Input).value.strip() or None
        if problem := api_key_problem(typed):
            error.update(Content.styled(f"The API key {problem}.", "$error"))
            self.query_one("#connection-key", Input).focus()
            return
        kind = str(self.query_one("#connection-kind", Select).value)
        profile = self.profiles.get(choice) if isinstance(choice, str) else None
        try:
            credentials = self.credentials(profile) if choice != EMBEDDED else None
        except LoginProblem as problem:
            error.update(Content.styled(str(problem), "$error"))
            return
        if profile is not None and url != profile.url:
            profile = None  # the URL was edited: this is no longer that profile
        api_key, source = typed, "typed" if typed else "none"
        if api_key is None and choice != EMBEDDED:
            names = ([profile.api_key_env] if profile and profile.api_key_env else []) + list(API_KEY_ENV_VARS)
            for name in names:
                if value := os.environ.get(name, "").strip().strip("\"'"):
                    api_key, source = value, f"${name}"
                    break
        self.dismiss(
            Connection(
                url=url,
                api_key=api_key,
                kind=kind,
                profile=profile.name if profile else None,
                key_source=source,
                credentials=credentials,
            )
        )

    def credentials(self, profile: Profile | None) -> Credentials | None:
        """The email typed, with the password typed or else the one in the profile's
        variable or $THREADBENCH_PASSWORD; raises LoginProblem for half a login."""
        email_box = self.query_one("#connection-email", Input)
        password_box = self.query_one("#connection-password", Input)
        email = email_box.value.strip()
        password = password_box.value or next(
            (os.environ[name] for name in self._password_variables(profile) if os.environ.get(name)), ""
        )
        if email and not password:
            password_box.focus()
            raise LoginProblem(f"Type the password for {clean(email)}.")
        if password_box.value and not email:
            email_box.focus()
            raise LoginProblem("Type the email to log in with.")
        return Credentials(email, password) if email else None

    def action_cancel(self) -> None:
        self.dismiss(None)
