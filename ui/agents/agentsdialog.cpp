#include "ui/agents/agentsdialog.h"

#include "ui/agents/agentspage.h"

#include <QDialogButtonBox>
#include <QVBoxLayout>

namespace Loopscope::Ui {

AgentsDialog::AgentsDialog(AgentStore *store, const QStringList &profileNames, const QStringList &toolNames,
                           QWidget *parent)
    : QDialog(parent)
    , m_page(new AgentsPage(store, profileNames, toolNames, this))
{
    setWindowTitle(tr("Agents"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_page, 1);
    layout->addWidget(buttons);
    const QFontMetrics metrics = fontMetrics();
    resize(metrics.averageCharWidth() * 150, metrics.lineSpacing() * 40);
}

} // namespace Loopscope::Ui
