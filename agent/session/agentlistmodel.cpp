#include "agent/session/agentlistmodel.h"

#include "agent/session/agentstore.h"

using namespace Qt::StringLiterals;

namespace Loopscope {

AgentListModel::AgentListModel(const AgentStore *store, QObject *parent)
    : QAbstractListModel(parent)
    , m_store(store)
    , m_rows(int(store->roster().agents.size()))
{
    connect(store, &AgentStore::changed, this, &AgentListModel::onStoreChanged);
}

int AgentListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_rows;
}

QVariant AgentListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const AgentPreset &agent = m_store->roster().agents.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case NameRole: return agent.name;
    case Qt::ToolTipRole:
        return tr("%1, version %2: %3").arg(agent.name).arg(agent.version).arg(agent.instructions.left(200));
    case VersionRole: return agent.version;
    case InstructionsRole: return agent.instructions;
    default: return {};
    }
}

QHash<int, QByteArray> AgentListModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(NameRole, "name");
    names.insert(VersionRole, "version");
    names.insert(InstructionsRole, "instructions");
    return names;
}

int AgentListModel::rowOf(const QString &name) const
{
    const QList<AgentPreset> &agents = m_store->roster().agents;
    for (int row = 0; row < m_rows; ++row) {
        if (agents.at(row).name == name)
            return row;
    }
    return -1;
}

// A change of the store may add, remove, rename or reorder agents at once: the list starts over.
void AgentListModel::onStoreChanged()
{
    beginResetModel();
    m_rows = int(m_store->roster().agents.size());
    endResetModel();
}

} // namespace Loopscope
