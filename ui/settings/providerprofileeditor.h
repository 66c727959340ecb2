#pragma once

#include "agent/config/providerprofile.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QMessageBox;
class QPushButton;
class QSpinBox;
QT_END_NAMESPACE

namespace Loopscope::Ui {

class KeyFileCheckBox;

/*!
    The form for one provider profile. It never holds a stored key: the key
    field is a password field that is empty unless the user types a new key,
    and its placeholder says whether the keychain already has one. On a
    desktop without a keychain it says so in place and offers the ways
    around it: an environment variable, or (warned, only when chosen) a file
    only the user can read. The page decides where a typed key goes and runs
    the connection test.
*/
class ProviderProfileEditor final : public QWidget
{
    Q_OBJECT

public:
    // What the keychain holds for the profile shown, never the key itself.
    enum class KeyState { Unknown, Checking, Stored, Missing, Unreadable, NoKeychain };

    explicit ProviderProfileEditor(QWidget *parent = nullptr);

    // Shows a profile (the id is kept for profile()) and clears any typed key and test result.
    void setProfile(const ProviderProfile &profile);
    ProviderProfile profile() const;

    void setKeyState(KeyState state, const QString &detail = {});
    KeyState keyState() const { return m_keyState; }
    // A key the user typed and that is not in the keychain yet; empty when none.
    QString typedKey() const;
    void setTypedKey(const QString &key);

    // Whether "Store the key in a file only you can read" may be offered (there is a key file).
    void setKeyFileOffered(bool offered);
    // The warning shown before a key goes to a file, while it is open.
    QMessageBox *keyFileWarning() const;

    // Why the profile cannot be saved as it stands; empty when it can.
    QString validationError() const;
    // Puts the cursor in the name, selected, ready to be typed over (a new profile).
    void focusName();

    void setTestRunning();
    void setTestResult(bool success, const QString &message);
    void clearTestResult();

signals:
    void edited();
    void testRequested();

private:
    void onKindChanged();
    void updateKeyPlaceholder();
    void useEnvironmentVariable();

    QLineEdit *m_name;
    QComboBox *m_kind;
    QLineEdit *m_baseUrl;
    QLineEdit *m_model;
    QLineEdit *m_apiKey;
    QLineEdit *m_apiKeyEnv;
    QLabel *m_keyHint;
    QWidget *m_noKeychain; // the message and the way to an environment variable
    KeyFileCheckBox *m_keyFile;
    QDoubleSpinBox *m_temperature;
    QDoubleSpinBox *m_topP; // the minimum reads "provider default"
    QSpinBox *m_maxOutputTokens;
    QDoubleSpinBox *m_inputPrice; // USD per million tokens; the minimum reads "price table"
    QDoubleSpinBox *m_outputPrice;
    QSpinBox *m_contextWindow; // 0 reads "price table"
    QCheckBox *m_stream;
    QPushButton *m_testButton;
    QLabel *m_testResult;

    QString m_id;
    KeyState m_keyState = KeyState::Unknown;
    bool m_keyFileOffered = false;
    QString m_keyDetail;
    bool m_loading = false;
};

} // namespace Loopscope::Ui
