#include "ui/session/providerpicker.h"

#include "agent/config/appsettings.h"
#include "agent/session/chatsession.h"

#include <QAbstractItemView>
#include <QAction>
#include <QComboBox>
#include <QCompleter>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QToolBar>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

const QString commandLineProfileId = u"command-line"_s;

} // namespace

ProviderPicker::ProviderPicker(ChatSession *session, ProviderProfileStore *profiles, AppSettings *settings,
                               SecretStore *secrets, QWidget *parent)
    : QObject(parent)
    , m_session(session)
    , m_profiles(profiles)
    , m_settings(settings)
    , m_secrets(secrets)
    , m_providerBox(new QComboBox(parent))
    , m_modelBox(new QComboBox(parent))
    , m_setKeyAction(new QAction(tr("Set &Key…"), this))
{
    m_providerBox->setAccessibleName(tr("Provider"));
    // A fixed width keeps the toolbar whole in a narrow window; long names are elided.
    m_providerBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_providerBox->setMinimumContentsLength(10);
    m_providerBox->view()->setMinimumWidth(m_providerBox->fontMetrics().averageCharWidth() * 24);
    connect(m_providerBox, &QComboBox::activated, this, &ProviderPicker::onProfileChosen);

    m_modelBox->setObjectName(u"modelBox"_s);
    m_modelBox->setAccessibleName(tr("Model"));
    m_modelBox->setEditable(true);
    m_modelBox->setInsertPolicy(QComboBox::NoInsert);
    m_modelBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_modelBox->setMinimumContentsLength(13);
    // Model names run long ("mistral-small-24b-instruct-2501"): the list shows them whole.
    m_modelBox->view()->setMinimumWidth(m_modelBox->fontMetrics().averageCharWidth() * 36);
    m_modelBox->setEnabled(false);
    m_modelBox->completer()->setCaseSensitivity(Qt::CaseInsensitive);
    m_modelBox->completer()->setFilterMode(Qt::MatchContains);
    m_modelBox->completer()->setCompletionMode(QCompleter::PopupCompletion);
    m_modelBox->setToolTip(tr("The model for the next turn of this session"));
    connect(m_modelBox, &QComboBox::textActivated, this, &ProviderPicker::chooseModel);
    // A typed name counts once it is confirmed, with Enter or by leaving the field.
    connect(m_modelBox->lineEdit(), &QLineEdit::editingFinished, this,
            [this] { chooseModel(m_modelBox->currentText()); });

    m_setKeyAction->setIcon(QIcon::fromTheme(u"dialog-warning"_s));
    m_setKeyAction->setVisible(false);
    connect(m_setKeyAction, &QAction::triggered, this, &ProviderPicker::setKeyRequested);

    connect(session, &ChatSession::providerChanged, this, &ProviderPicker::onProviderChanged);
    connect(session, &ChatSession::modelsListed, this, &ProviderPicker::showModels);
    connect(session, &ChatSession::modelsListFailed, this, &ProviderPicker::showModelListFailure);
    connect(session, &ChatSession::busyChanged, this, &ProviderPicker::onBusyChanged);
    connect(session, &ChatSession::restored, this,
            [this] { m_recordedModelPending = !continueOnRecordedModel(); });
    connect(session, &ChatSession::cleared, this, [this] {
        m_recordedModelPending = false;
        returnToProfileModel();
    });
}

void ProviderPicker::addTo(QToolBar *bar)
{
    const int margin = bar->fontMetrics().averageCharWidth();
    const auto label = [bar, margin](const QString &text, QWidget *buddy) {
        auto *label = new QLabel(text, bar);
        label->setBuddy(buddy);
        label->setContentsMargins(margin, 0, margin / 2, 0);
        return label;
    };
    bar->addWidget(label(tr("&Provider:"), m_providerBox));
    bar->addWidget(m_providerBox);
    bar->addWidget(label(tr("&Model:"), m_modelBox));
    bar->addWidget(m_modelBox);
    bar->addAction(m_setKeyAction);
}

void ProviderPicker::setCommandLineProfile(const std::optional<ProviderProfile> &profile)
{
    m_commandLineProfile = profile;
    if (m_commandLineProfile)
        m_commandLineProfile->id = commandLineProfileId;
}

void ProviderPicker::reloadProfiles(const QString &selectId)
{
    const QString current = selectId.isEmpty() ? m_providerBox->currentData().toString() : selectId;
    const QSignalBlocker quiet(m_providerBox);
    m_providerBox->clear();
    if (m_commandLineProfile)
        m_providerBox->addItem(m_commandLineProfile->name, commandLineProfileId);
    for (const ProviderProfile &profile : m_profiles->profiles())
        m_providerBox->addItem(profile.name.isEmpty() ? profile.model : profile.name, profile.id);
    const int index = m_providerBox->findData(current);
    m_providerBox->setCurrentIndex(index >= 0 ? index : 0);
}

bool ProviderPicker::hasProfiles() const
{
    return m_providerBox->count() > 0;
}

void ProviderPicker::useSelectedProfile()
{
    if (hasProfiles() && !m_session->isBusy())
        onProfileChosen(m_providerBox->currentIndex());
}

std::optional<ProviderProfile> ProviderPicker::profileOf(const QString &id) const
{
    return id == commandLineProfileId ? m_commandLineProfile : m_profiles->profile(id);
}

void ProviderPicker::onProfileChosen(int index)
{
    if (index < 0)
        return;
    const QString id = m_providerBox->itemData(index).toString();
    const std::optional<ProviderProfile> profile = profileOf(id);
    if (!profile)
        return;
    if (id != commandLineProfileId)
        m_profiles->setDefaultProfileId(id);
    m_modelsListedFor.clear(); // its key or endpoint may have changed: list its models afresh
    emit profileChosen();
    m_session->useProfile(*profile, m_secrets, m_settings->providerReadTimeoutMs());
}

void ProviderPicker::onProviderChanged()
{
    if (showAgentsProvider())
        return;
    showSessionsProvider();
    showAgentsModel();
}

void ProviderPicker::showSessionsProvider()
{
    enableBoxes(m_session->isBusy());
    const std::optional<ProviderProfile> profile = m_session->provider();
    if (!profile)
        return;
    if (m_recordedModelPending) {
        m_recordedModelPending = false;
        continueOnRecordedModel();
        if (m_session->provider() != profile)
            return; // setModel() announced the recorded model through its own providerChanged()
    }
    // The box names the profile the session uses, whatever was picked last.
    if (const int index = m_providerBox->findData(profile->id); index >= 0)
        m_providerBox->setCurrentIndex(index);
    const QString problem = m_session->setup().providerProblem();
    m_setKeyAction->setVisible(!problem.isEmpty());
    m_setKeyAction->setToolTip(problem);
    m_providerBox->setToolTip(problem.isEmpty() ? tr("The provider for the next turn of this session")
                                                : problem);
    if (!m_modelBox->lineEdit()->hasFocus() || m_modelBox->currentText().isEmpty())
        m_modelBox->setEditText(profile->model);
    // Another provider (or the same one chosen afresh, see onProfileChosen()): its own models.
    const QString listedFor = profile->id;
    if (listedFor == m_modelsListedFor)
        return;
    m_modelsListedFor = listedFor;
    m_modelBox->clear();
    m_modelBox->setEditText(profile->model);
    m_modelBox->setToolTip(tr("Listing the models of %1…").arg(profile->name));
    m_session->listModels();
}

void ProviderPicker::showModels(const QStringList &models)
{
    const QString current = m_session->provider() ? m_session->provider()->model : QString();
    m_modelBox->clear();
    m_modelBox->addItems(models);
    // The list opens at the model in use; one typed by hand stays as typed.
    m_modelBox->setCurrentIndex(m_modelBox->findText(current));
    m_modelBox->setEditText(current);
    m_modelBox->lineEdit()->setPlaceholderText(tr("Type a model"));
    m_modelBox->setToolTip(models.isEmpty()
                               ? tr("The provider lists no models: type the name of one.")
                               : tr("The model for the next turn of this session; %n listed, or type one.",
                                    nullptr, int(models.size())));
    showAgentsModel();
}

void ProviderPicker::showModelListFailure(const QString &reason)
{
    // Not worth a dialog: the model can still be typed.
    m_modelBox->clear();
    if (const auto profile = m_session->provider())
        m_modelBox->setEditText(profile->model);
    m_modelBox->lineEdit()->setPlaceholderText(tr("Type a model"));
    m_modelBox->setToolTip(tr("The models could not be listed: %1\nType the name of a model.").arg(reason));
    showAgentsModel();
}

void ProviderPicker::chooseModel(const QString &model)
{
    const std::optional<ProviderProfile> profile = m_session->provider();
    if (!profile)
        return;
    const QString name = model.trimmed();
    if (name.isEmpty() || name == profile->model || !m_session->setModel(name)) {
        m_modelBox->setEditText(profile->model);
        return;
    }
    // Like LM Studio and Jan: the picked model is the active one, and the provider's model the next
    // time it is used (this session's file records it too). The session's profile is the one shown.
    if (profile->id == commandLineProfileId) {
        if (m_commandLineProfile)
            m_commandLineProfile->model = name;
    } else if (std::optional<ProviderProfile> stored = m_profiles->profile(profile->id)) {
        stored->model = name;
        m_profiles->save(*stored);
        if (stored->name.isEmpty())
            reloadProfiles();
    }
    emit message(tr("The next turn uses %1.").arg(name));
}

bool ProviderPicker::continueOnRecordedModel()
{
    const std::optional<RecordedProvider> recorded = m_session->recordedProvider();
    if (!recorded)
        return true;
    const std::optional<ProviderProfile> current = m_session->provider();
    QList<ProviderProfile> profiles = m_profiles->profiles();
    if (m_commandLineProfile)
        profiles.prepend(*m_commandLineProfile);
    std::optional<ProviderProfile> profile = profileForRecordedProvider(current, profiles, *recorded);
    if (!profile) {
        if (!current)
            return false;
        if (current->model != recorded->model) {
            emit message(tr("This session ran on %1, which no provider here reaches; the next turn uses %2.")
                             .arg(recorded->model, current->model));
        }
        return true;
    }
    if (current && profile->id == current->id) {
        // Like Jan and LM Studio: a chat keeps its model; the provider's own model stays as it was.
        if (current->model != recorded->model && m_session->setModel(recorded->model))
            emit message(tr("This session continues on %1.").arg(recorded->model));
        return true;
    }
    // Another profile reaches the provider the session ran on: switch to it, on the session's model.
    profile->model = recorded->model;
    m_modelsListedFor.clear();
    m_session->useProfile(*profile, m_secrets, m_settings->providerReadTimeoutMs());
    emit message(tr("This session continues on %1 with %2.").arg(profile->name, recorded->model));
    return true;
}

void ProviderPicker::returnToProfileModel()
{
    const std::optional<ProviderProfile> current = m_session->provider();
    if (!current)
        return;
    const std::optional<ProviderProfile> chosen = profileOf(current->id);
    if (chosen && !chosen->model.isEmpty() && chosen->model != current->model)
        m_session->setModel(chosen->model);
}

bool ProviderPicker::showAgentsProvider()
{
    const QString agent = m_session->providerAgent();
    if (agent.isEmpty())
        return false;
    const std::optional<ProviderProfile> profile = m_session->nextTurnProvider();
    // A profile the agent names but that is not listed (it does not exist) leaves the box empty:
    // the tooltip says why, as the turn's failure will.
    m_providerBox->setCurrentIndex(profile ? m_providerBox->findData(profile->id) : -1);
    m_modelsListedFor.clear(); // the session's models are listed again once the agent no longer decides
    m_modelBox->clear();
    m_modelBox->setEditText(profile ? profile->model : QString());
    const QString problem = m_session->nextTurnProviderProblem();
    //: %1 is the agent's name. The toolbar's provider and model pickers while the agent decides.
    const QString why = tr("Set by agent \"%1\", which runs on a provider profile of its own: choose its "
                           "provider and model on the Agents page, or choose another agent.")
                            .arg(agent);
    m_providerBox->setToolTip(problem.isEmpty() ? why : why + u"\n\n"_s + problem);
    m_modelBox->setToolTip(why);
    m_setKeyAction->setVisible(!problem.isEmpty());
    m_setKeyAction->setToolTip(problem);
    enableBoxes(m_session->isBusy());
    return true;
}

void ProviderPicker::showAgentsModel()
{
    const QString agent = modelAgent();
    if (agent.isEmpty())
        return;
    if (const std::optional<ProviderProfile> profile = m_session->nextTurnProvider())
        m_modelBox->setEditText(profile->model);
    //: %1 is the agent's name. The toolbar's model picker while the agent names its model.
    m_modelBox->setToolTip(tr("Set by agent \"%1\", which names its model: choose it on the Agents page, "
                              "or choose another agent.")
                               .arg(agent));
}

QString ProviderPicker::modelAgent() const
{
    const AgentPreset *agent = m_session->setup().activeAgent();
    return agent && (agent->model || agent->provider) ? agent->name : QString();
}

void ProviderPicker::enableBoxes(bool busy)
{
    // The provider and the model change between turns only, and not while the agent the turns start
    // with runs on a profile of its own: a choice there would change nothing the next turn uses.
    m_providerBox->setEnabled(!busy && m_session->providerAgent().isEmpty());
    m_modelBox->setEnabled(!busy && m_session->hasProvider() && modelAgent().isEmpty());
}

void ProviderPicker::onBusyChanged(bool busy)
{
    enableBoxes(busy);
}

} // namespace Loopscope::Ui
