#include "ui/settings/providerprofileeditor.h"

#include "ui/settings/keyfilecheckbox.h"

#include "agent/providers/providerfactory.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

QString exampleModel(ProviderKind kind)
{
    switch (kind) {
    case ProviderKind::OpenAi: return u"gpt-4o-mini"_s;
    case ProviderKind::Anthropic: return u"claude-sonnet-4-5"_s;
    case ProviderKind::Gemini: return u"gemini-2.5-flash"_s;
    case ProviderKind::Ollama: return u"llama3.2"_s;
    }
    return {};
}

} // namespace

ProviderProfileEditor::ProviderProfileEditor(QWidget *parent)
    : QWidget(parent)
    , m_name(new QLineEdit(this))
    , m_kind(new QComboBox(this))
    , m_baseUrl(new QLineEdit(this))
    , m_model(new QLineEdit(this))
    , m_apiKey(new QLineEdit(this))
    , m_apiKeyEnv(new QLineEdit(this))
    , m_keyHint(new QLabel(this))
    , m_noKeychain(new QWidget(this))
    , m_keyFile(new KeyFileCheckBox(tr("Store the key in a fi&le only you can read"),
                                    tr("The key will be kept unencrypted in a file that only your user "
                                       "account can read. Anyone who can use your account, and your "
                                       "backups, can read it too. A keychain would keep it encrypted."),
                                    this))
    , m_temperature(new QDoubleSpinBox(this))
    , m_topP(new QDoubleSpinBox(this))
    , m_maxOutputTokens(new QSpinBox(this))
    , m_inputPrice(new QDoubleSpinBox(this))
    , m_outputPrice(new QDoubleSpinBox(this))
    , m_contextWindow(new QSpinBox(this))
    , m_stream(new QCheckBox(tr("&Stream the answer as it is written"), this))
    , m_testButton(new QPushButton(tr("&Test connection"), this))
    , m_testResult(new QLabel(this))
{
    m_name->setObjectName(u"nameEdit"_s);
    m_name->setAccessibleName(tr("Profile name"));
    m_name->setPlaceholderText(tr("e.g. Work OpenAI"));

    m_kind->setObjectName(u"kindCombo"_s);
    m_kind->setAccessibleName(tr("Provider"));
    m_kind->addItem(tr("OpenAI-compatible"), providerKindName(ProviderKind::OpenAi));
    m_kind->addItem(tr("Anthropic"), providerKindName(ProviderKind::Anthropic));
    m_kind->addItem(tr("Google Gemini"), providerKindName(ProviderKind::Gemini));
    m_kind->addItem(tr("Ollama"), providerKindName(ProviderKind::Ollama));

    m_baseUrl->setObjectName(u"baseUrlEdit"_s);
    m_baseUrl->setAccessibleName(tr("Base URL"));
    m_baseUrl->setToolTip(tr("Leave empty for the provider's usual address."));

    m_model->setObjectName(u"modelEdit"_s);
    m_model->setAccessibleName(tr("Model"));

    // A password field that is never filled from the keychain: what it shows
    // was typed in this dialog, and even that only as dots.
    m_apiKey->setObjectName(u"apiKeyEdit"_s);
    m_apiKey->setAccessibleName(tr("API key"));
    m_apiKey->setEchoMode(QLineEdit::Password);
    m_apiKey->setClearButtonEnabled(true);

    m_apiKeyEnv->setObjectName(u"apiKeyEnvEdit"_s);
    m_apiKeyEnv->setAccessibleName(tr("API key from environment variable"));
    m_apiKeyEnv->setToolTip(tr("The name of an environment variable that holds the key, used instead of the "
                               "keychain."));

    m_keyHint->setObjectName(u"keyHintLabel"_s);
    m_keyHint->setWordWrap(true);
    m_keyHint->setTextFormat(Qt::PlainText);
    m_keyHint->setForegroundRole(QPalette::PlaceholderText);
    // The form grows only expanding fields: the help takes the whole width.
    m_keyHint->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);

    // No keychain on this desktop: said plainly where the key goes, with the ways around it.
    m_noKeychain->setObjectName(u"noKeychainPanel"_s);
    auto *noKeychainText = new QLabel(tr("No keychain is available on this desktop, so the key cannot be "
                                         "kept in one. Name an environment variable that holds it, or "
                                         "store the key in a file only you can read."),
                                      m_noKeychain);
    noKeychainText->setObjectName(u"noKeychainLabel"_s);
    noKeychainText->setWordWrap(true);
    noKeychainText->setTextFormat(Qt::PlainText);
    noKeychainText->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    auto *useEnvironment = new QPushButton(tr("Use an en&vironment variable"), m_noKeychain);
    useEnvironment->setObjectName(u"useEnvironmentButton"_s);
    useEnvironment->setToolTip(tr("Read the key from an environment variable set before Loopscope starts."));
    auto *noKeychainLayout = new QVBoxLayout(m_noKeychain);
    noKeychainLayout->setContentsMargins(0, 0, 0, 0);
    noKeychainLayout->addWidget(noKeychainText);
    auto *environmentRow = new QHBoxLayout;
    environmentRow->addWidget(useEnvironment);
    environmentRow->addStretch(1);
    noKeychainLayout->addLayout(environmentRow);
    m_noKeychain->setVisible(false);
    connect(useEnvironment, &QPushButton::clicked, this, &ProviderProfileEditor::useEnvironmentVariable);

    m_keyFile->setAccessibleName(tr("Store the key in a file only you can read"));
    m_keyFile->setVisible(false);
    connect(m_keyFile, &KeyFileCheckBox::chosen, this, [this] {
        updateKeyPlaceholder();
        if (!m_loading)
            emit edited();
    });

    m_temperature->setObjectName(u"temperatureSpin"_s);
    m_temperature->setAccessibleName(tr("Temperature"));
    m_temperature->setRange(-0.1, 2.0); // the minimum reads "provider default"
    m_temperature->setDecimals(2);
    m_temperature->setSingleStep(0.1);
    m_temperature->setSpecialValueText(tr("provider default"));

    m_topP->setObjectName(u"topPSpin"_s);
    m_topP->setAccessibleName(tr("Top p"));
    m_topP->setRange(-0.05, 1.0);
    m_topP->setDecimals(2);
    m_topP->setSingleStep(0.05);
    m_topP->setSpecialValueText(tr("provider default"));
    m_topP->setToolTip(tr("Nucleus sampling (top_p). Some models refuse a temperature and top_p together; "
                          "their error is shown in the chat."));

    m_maxOutputTokens->setObjectName(u"maxOutputTokensSpin"_s);
    m_maxOutputTokens->setAccessibleName(tr("Maximum output tokens"));
    m_maxOutputTokens->setRange(0, 1'000'000);
    m_maxOutputTokens->setSingleStep(256);
    m_maxOutputTokens->setSpecialValueText(tr("provider default"));

    // Below zero means "no override": 0 is a real price (a free model).
    for (QDoubleSpinBox *price : {m_inputPrice, m_outputPrice}) {
        price->setRange(-0.01, 10'000);
        price->setDecimals(3);
        price->setSingleStep(0.05);
        price->setPrefix(u"$"_s);
        price->setSpecialValueText(tr("price table"));
        price->setToolTip(tr("USD per million tokens. Set both prices to override the built-in price "
                             "table; local servers cost 0 without them."));
    }
    m_inputPrice->setObjectName(u"inputPriceSpin"_s);
    m_inputPrice->setAccessibleName(tr("Input price per million tokens"));
    m_outputPrice->setObjectName(u"outputPriceSpin"_s);
    m_outputPrice->setAccessibleName(tr("Output price per million tokens"));
    m_contextWindow->setObjectName(u"contextWindowSpin"_s);
    m_contextWindow->setAccessibleName(tr("Context window"));
    m_contextWindow->setRange(0, 100'000'000);
    m_contextWindow->setSingleStep(1024);
    m_contextWindow->setSpecialValueText(tr("price table"));

    m_stream->setObjectName(u"streamCheck"_s);
    m_stream->setAccessibleName(tr("Stream responses"));

    m_testButton->setObjectName(u"testConnectionButton"_s);
    m_testButton->setAccessibleName(tr("Test connection"));
    m_testButton->setToolTip(tr("Sends one short message to the model with these settings."));

    m_testResult->setObjectName(u"testResultLabel"_s);
    m_testResult->setAccessibleName(tr("Connection test result"));
    m_testResult->setWordWrap(true);
    m_testResult->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    m_testResult->setTextFormat(Qt::PlainText); // a server's error text is shown as it came
    m_testResult->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);

    auto *form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Provider:"), m_kind);
    form->addRow(tr("&Base URL:"), m_baseUrl);
    form->addRow(tr("&Model:"), m_model);
    form->addRow(tr("API &key:"), m_apiKey);
    form->addRow(tr("&Environment variable:"), m_apiKeyEnv);
    form->addRow(QString(), m_keyHint);
    form->addRow(QString(), m_noKeychain);
    form->addRow(QString(), m_keyFile);
    form->addRow(tr("Temperat&ure:"), m_temperature);
    form->addRow(tr("Top p (nucleus s&ampling):"), m_topP);
    form->addRow(tr("Max output t&okens:"), m_maxOutputTokens);
    form->addRow(tr("&Input price per M tokens:"), m_inputPrice);
    form->addRow(tr("Output pri&ce per M tokens:"), m_outputPrice);
    form->addRow(tr("Context &window (tokens):"), m_contextWindow);
    form->addRow(QString(), m_stream);
    // The result gets a row of its own: a server's error is often long, and
    // beside the button it would be squeezed and cut.
    auto *testRow = new QHBoxLayout;
    testRow->addWidget(m_testButton);
    testRow->addStretch(1);
    form->addRow(QString(), testRow);
    form->addRow(QString(), m_testResult);

    const auto changed = [this] {
        if (!m_loading)
            emit edited();
    };
    connect(m_name, &QLineEdit::textChanged, this, changed);
    connect(m_baseUrl, &QLineEdit::textChanged, this, changed);
    connect(m_model, &QLineEdit::textChanged, this, changed);
    connect(m_apiKey, &QLineEdit::textChanged, this, changed);
    connect(m_apiKeyEnv, &QLineEdit::textChanged, this, [this, changed] {
        updateKeyPlaceholder();
        changed();
    });
    connect(m_temperature, &QDoubleSpinBox::valueChanged, this, changed);
    connect(m_topP, &QDoubleSpinBox::valueChanged, this, changed);
    connect(m_maxOutputTokens, &QSpinBox::valueChanged, this, changed);
    connect(m_inputPrice, &QDoubleSpinBox::valueChanged, this, changed);
    connect(m_outputPrice, &QDoubleSpinBox::valueChanged, this, changed);
    connect(m_contextWindow, &QSpinBox::valueChanged, this, changed);
    connect(m_stream, &QCheckBox::toggled, this, changed);
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this, changed] {
        onKindChanged();
        changed();
    });
    connect(m_testButton, &QPushButton::clicked, this, &ProviderProfileEditor::testRequested);

    setProfile(ProviderProfile());
}

void ProviderProfileEditor::setProfile(const ProviderProfile &profile)
{
    m_loading = true;
    m_id = profile.id;
    m_name->setText(profile.name);
    m_kind->setCurrentIndex(qMax(0, m_kind->findData(providerKindName(profile.kind))));
    m_baseUrl->setText(profile.baseUrl.toString());
    m_model->setText(profile.model);
    m_apiKey->clear();
    m_apiKeyEnv->setText(profile.apiKeyEnv);
    m_temperature->setValue(profile.defaults.temperature.value_or(m_temperature->minimum()));
    m_topP->setValue(profile.defaults.topP.value_or(m_topP->minimum()));
    m_maxOutputTokens->setValue(profile.defaults.maxOutputTokens.value_or(0));
    m_inputPrice->setValue(profile.inputPricePerMTok.value_or(m_inputPrice->minimum()));
    m_outputPrice->setValue(profile.outputPricePerMTok.value_or(m_outputPrice->minimum()));
    m_contextWindow->setValue(
        int(std::clamp<qint64>(profile.contextWindow.value_or(0), 0, m_contextWindow->maximum())));
    m_stream->setChecked(profile.defaults.stream);
    m_keyFile->showChoice(profile.keyStorage == ProviderProfile::KeyStorage::File);
    onKindChanged();
    clearTestResult();
    m_loading = false;
}

ProviderProfile ProviderProfileEditor::profile() const
{
    ProviderProfile profile;
    profile.id = m_id;
    profile.name = m_name->text().trimmed();
    profile.kind = providerKindFromName(m_kind->currentData().toString()).value_or(ProviderKind::OpenAi);
    const QString baseUrl = m_baseUrl->text().trimmed();
    if (!baseUrl.isEmpty())
        profile.baseUrl = QUrl(baseUrl, QUrl::StrictMode);
    profile.model = m_model->text().trimmed();
    profile.apiKeyEnv = m_apiKeyEnv->text().trimmed();
    profile.defaults.model = profile.model;
    if (m_temperature->value() >= 0)
        profile.defaults.temperature = m_temperature->value();
    if (m_topP->value() >= 0)
        profile.defaults.topP = m_topP->value();
    if (m_maxOutputTokens->value() > 0)
        profile.defaults.maxOutputTokens = m_maxOutputTokens->value();
    if (m_inputPrice->value() >= 0)
        profile.inputPricePerMTok = m_inputPrice->value();
    if (m_outputPrice->value() >= 0)
        profile.outputPricePerMTok = m_outputPrice->value();
    if (m_contextWindow->value() > 0)
        profile.contextWindow = m_contextWindow->value();
    profile.defaults.stream = m_stream->isChecked();
    if (m_keyFile->isChecked())
        profile.keyStorage = ProviderProfile::KeyStorage::File;
    return profile;
}

void ProviderProfileEditor::setKeyState(KeyState state, const QString &detail)
{
    m_keyState = state;
    m_keyDetail = detail;
    updateKeyPlaceholder();
}

void ProviderProfileEditor::setKeyFileOffered(bool offered)
{
    m_keyFileOffered = offered;
    updateKeyPlaceholder();
}

QMessageBox *ProviderProfileEditor::keyFileWarning() const
{
    return m_keyFile->warning();
}

void ProviderProfileEditor::useEnvironmentVariable()
{
    if (m_apiKeyEnv->text().trimmed().isEmpty()) {
        const ProviderKind kind
            = providerKindFromName(m_kind->currentData().toString()).value_or(ProviderKind::OpenAi);
        m_apiKeyEnv->setText(defaultApiKeyEnv(kind));
    }
    m_apiKeyEnv->setFocus();
    m_apiKeyEnv->selectAll();
}

QString ProviderProfileEditor::typedKey() const
{
    return m_apiKey->text().trimmed();
}

void ProviderProfileEditor::focusName()
{
    m_name->setFocus();
    m_name->selectAll();
}

void ProviderProfileEditor::setTypedKey(const QString &key)
{
    const bool loading = std::exchange(m_loading, true);
    m_apiKey->setText(key);
    m_loading = loading;
}

QString ProviderProfileEditor::validationError() const
{
    const ProviderProfile p = profile();
    if (p.name.isEmpty())
        return tr("Give the profile a name.");
    if (p.model.isEmpty())
        return tr("Enter the model to use, e.g. %1.").arg(exampleModel(p.kind));
    if (!m_baseUrl->text().trimmed().isEmpty()) {
        const QString scheme = p.baseUrl.scheme();
        if (!p.baseUrl.isValid() || p.baseUrl.host().isEmpty()
            || (scheme != u"http"_s && scheme != u"https"_s))
            return tr("The base URL must be an http:// or https:// address.");
    }
    if (p.apiKeyEnv.contains(u'=') || p.apiKeyEnv.contains(u' '))
        return tr("An environment variable name has no spaces and no \"=\".");
    return {};
}

void ProviderProfileEditor::setTestRunning()
{
    m_testButton->setEnabled(false);
    m_testResult->setText(tr("Testing…"));
}

void ProviderProfileEditor::setTestResult(bool success, const QString &message)
{
    m_testButton->setEnabled(true);
    m_testResult->setText(success ? message : tr("Connection failed: %1").arg(message));
}

void ProviderProfileEditor::clearTestResult()
{
    m_testButton->setEnabled(true);
    m_testResult->clear();
}

void ProviderProfileEditor::onKindChanged()
{
    const ProviderKind kind
        = providerKindFromName(m_kind->currentData().toString()).value_or(ProviderKind::OpenAi);
    m_baseUrl->setPlaceholderText(defaultBaseUrl(kind).toString());
    m_model->setPlaceholderText(tr("e.g. %1").arg(exampleModel(kind)));
    const QString env = defaultApiKeyEnv(kind);
    m_apiKeyEnv->setPlaceholderText(env.isEmpty() ? tr("none") : tr("e.g. %1").arg(env));
    updateKeyPlaceholder();
}

void ProviderProfileEditor::updateKeyPlaceholder()
{
    const bool needsKey = profile().needsKey();
    const QString env = m_apiKeyEnv->text().trimmed();
    const bool inFile = m_keyFile->isChecked();
    QString placeholder;
    switch (m_keyState) {
    case KeyState::Checking: placeholder = tr("checking the keychain…"); break;
    case KeyState::Stored:
        placeholder = inFile ? tr("stored in the key file — type to replace")
                             : tr("stored in the keychain — type to replace");
        break;
    case KeyState::Unreadable:
        placeholder = inFile ? tr("the key file could not be read") : tr("the keychain could not be read");
        break;
    case KeyState::NoKeychain:
        if (!inFile) {
            placeholder = tr("no keychain on this desktop");
            break;
        }
        [[fallthrough]];
    case KeyState::Unknown:
    case KeyState::Missing:
        placeholder = needsKey ? tr("not set") : tr("not needed for a local server");
        break;
    }
    m_apiKey->setPlaceholderText(placeholder);
    m_apiKey->setAccessibleDescription(placeholder); // not every screen reader reads placeholders

    QString hint;
    if (!env.isEmpty()) {
        hint = tr("The key is read from the environment variable %1; the keychain is not used for this "
                  "profile.")
                   .arg(env);
    } else if (inFile) {
        hint = tr("The key is kept in a file only you can read, never in the settings file.");
    } else {
        hint = tr("The key is kept in your system keychain, never in the settings file. Or name an "
                  "environment variable that holds it.");
    }
    if (m_keyState == KeyState::Unreadable && !m_keyDetail.isEmpty())
        hint += u' ' + (inFile ? tr("Key file: %1") : tr("Keychain: %1")).arg(m_keyDetail);
    m_keyHint->setText(hint);

    // The ways around a missing keychain, where the key is entered; the file only when there is one.
    const bool noKeychain = m_keyState == KeyState::NoKeychain && needsKey && env.isEmpty();
    m_noKeychain->setVisible(noKeychain && !inFile);
    m_keyFile->setVisible(m_keyFileOffered && env.isEmpty() && needsKey && (noKeychain || inFile));
}

} // namespace Loopscope::Ui
