#pragma once

#include "agent/debug/approvalscope.h"
#include "ui/settings/settingspage.h"

#include <QHash>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLineEdit;
class QListWidget;
class QPushButton;
QT_END_NAMESPACE

namespace Loopscope::Ui {

/*!
    Settings → Tools: which built-in tools the agent has and what happens before
    each runs (its approval rule), the "Always allow" rules chosen in the chat
    for part of a tool (a folder, a command prefix, a host), the workspace
    folder the file tools are confined to, and whether fetch_url may reach this
    computer and its network. Rules of tools that are not built in are kept.
*/
class ToolsPage final : public SettingsPage
{
    Q_OBJECT

public:
    explicit ToolsPage(QWidget *parent = nullptr);

    void load(const AppSettings &settings) override;
    // The workspace folder, when one is given, must exist; the default one is made when first needed.
    QString validationError() const override;
    void focusProblem() override;
    void save(AppSettings &settings) override;

    static QString describeScopedApproval(const ScopedApproval &approval);

private:
    void refreshScopedApprovals();
    void removeScopedApproval();
    void chooseWorkspace();
    QString workspace() const;

    QHash<QString, QCheckBox *> m_toolEnabled;
    QHash<QString, QComboBox *> m_toolRule;
    QListWidget *m_scopedList = nullptr;
    QPushButton *m_removeScopedButton = nullptr;
    QList<ScopedApproval> m_scopedApprovals; // as edited here
    QLineEdit *m_workspace = nullptr;
    QPushButton *m_browseButton = nullptr;
    QCheckBox *m_fetchPrivate = nullptr;
};

} // namespace Loopscope::Ui
