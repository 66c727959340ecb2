#pragma once

#include "agent/config/providerprofile.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <optional>

QT_BEGIN_NAMESPACE
class QAction;
class QComboBox;
class QToolBar;
QT_END_NAMESPACE

namespace Loopscope {
class AppSettings;
class ChatSession;
class SecretStore;
} // namespace Loopscope

namespace Loopscope::Ui {

/*!
    The toolbar's provider and model picker. Choosing a profile hands it to
    the session, key and all; the boxes then show what the session's setup
    says, never the choice alone, so what they name is what the next request
    uses, also for a profile whose key cannot be read (its turns fail with the
    reason and "Set Key…" offers the fix). A model picked or typed is the
    session's and becomes the shown profile's own. A reopened session continues
    on the provider and model it ran on when a profile reaches them.
*/
class ProviderPicker final : public QObject
{
    Q_OBJECT

public:
    ProviderPicker(ChatSession *session, ProviderProfileStore *profiles, AppSettings *settings,
                   SecretStore *secrets, QWidget *parent);

    // The labelled boxes and the Set Key action, in this order.
    void addTo(QToolBar *bar);
    QComboBox *providerBox() const { return m_providerBox; }
    QComboBox *modelBox() const { return m_modelBox; }
    // Shown while the session's profile has no usable key; opens where one is entered.
    QAction *setKeyAction() const { return m_setKeyAction; }

    // A profile from the command line, for this run only, listed first.
    void setCommandLineProfile(const std::optional<ProviderProfile> &profile);
    // Lists the profiles again, selecting \a selectId (else the one selected).
    void reloadProfiles(const QString &selectId = {});
    bool hasProfiles() const;
    // The selected profile to the session (afresh: its key or endpoint may have changed).
    void useSelectedProfile();

signals:
    void message(const QString &text);
    // A profile was chosen: the conversation is where the user goes next.
    void profileChosen();
    void setKeyRequested();

private:
    void onProfileChosen(int index);
    std::optional<ProviderProfile> profileOf(const QString &id) const;
    // The boxes follow the session's provider and list its models when it changes.
    void onProviderChanged();
    void showModels(const QStringList &models);
    void showModelListFailure(const QString &reason);
    void chooseModel(const QString &model);
    // A reopened session continues on the provider and model it ran on, when
    // a profile reaches that provider; false when it must wait for a provider.
    bool continueOnRecordedModel();
    // A new session starts on the chosen provider's own model again.
    void returnToProfileModel();
    void onBusyChanged(bool busy);
    // While the agent the turns start with runs on a profile of its own, the boxes name that profile
    // and model, disabled, saying why; false when the session's provider is the one to show.
    bool showAgentsProvider();
    void enableBoxes(bool busy);
    void showSessionsProvider();
    // While the agent the turns start with names its model, the model box shows it, disabled, saying why.
    void showAgentsModel();
    // That agent (also one on a profile of its own); empty when the session's model is the one used.
    QString modelAgent() const;

    ChatSession *m_session;
    ProviderProfileStore *m_profiles;
    AppSettings *m_settings;
    SecretStore *m_secrets;
    QComboBox *m_providerBox;
    QComboBox *m_modelBox;
    QAction *m_setKeyAction;
    std::optional<ProviderProfile> m_commandLineProfile;
    QString m_modelsListedFor; // the provider whose models the picker offers
    // A session was reopened before any provider was set: follow its model once one is.
    bool m_recordedModelPending = false;
};

} // namespace Loopscope::Ui
