#pragma once

#include <QDialog>

namespace Loopscope {
class AgentStore;
} // namespace Loopscope

namespace Loopscope::Ui {

class AgentsPage;

/*! The Agents page in a window of its own, opened from the toolbar; every Save is stored at once. */
class AgentsDialog final : public QDialog
{
    Q_OBJECT

public:
    AgentsDialog(AgentStore *store, const QStringList &profileNames, const QStringList &toolNames,
                 QWidget *parent = nullptr);

    AgentsPage *page() const { return m_page; }

private:
    AgentsPage *m_page;
};

} // namespace Loopscope::Ui
